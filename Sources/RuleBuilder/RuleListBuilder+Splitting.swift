import ContentRuleList
import TrackerlessCore

// The last stage: whole sections packed into lists that WebKit accepts, each list ending with
// the configuration's rules, since an exception acts only within its own list.

extension RuleListBuilder {
    /// The sections' rules one after another, and where each section ends: the builders append
    /// to one array, which becomes the list itself when the rules fit in one. With ``packing``,
    /// a list's worth of sections is set aside as soon as the next section does not fit
    /// (``closedLists``), so that each list is made from its own array without a copy.
    struct Sections {
        /// The rules of the list being filled: all the sections' rules without ``packing``, the
        /// rules after ``closedLists`` with it. The builders append to it.
        var rules: [ContentRule] = []
        /// The end of each section, counted over all the sections' rules; none is empty.
        var ends: [Int] = []
        /// The input of each section.
        var origins: [Origin] = []
        /// Which input of its tracker each rule says (``RuleSource/part``), parallel to `rules`
        /// once ``alignParts()`` has run: a builder that appends only rules leaves it short.
        /// Empty unless ``recordsParts``.
        var parts: [RuleSource.Part?] = []
        /// Inputs whose sections are dropped when they end.
        var leftOut: Set<Origin> = []
        /// Whether ``parts`` is kept (``RuleListBuilder/Settings/recordsRuleSources``).
        var recordsParts = true
        /// How sections are lowered and packed into lists as they end; nil: all at the end, by
        /// ``WebKitTarget/lower(_:report:)`` and ``RuleListBuilder/split(_:tail:tailOrigins:limits:target:report:)``.
        var packing: Packing?
        /// The rules of the lists that ``packing`` filled, each with its parts, before `rules`;
        /// with the count of its rules, whether they are exactly the rules of a list `split` will
        /// plan, and the number it was handed over with (its rules then let go, see
        /// ``handOverClosedLists(numbering:_:)``).
        var closedLists: [(rules: [ContentRule], parts: [RuleSource.Part?], ruleCount: Int, isWhole: Bool, handedOver: Int?)] = []
        /// The lists of ``closedLists`` that ``handOverClosedLists(numbering:_:)`` has seen.
        var handedOverCount = 0
        /// The sections of each list of ``closedLists`` (in ``ends``), the one of a list handed
        /// over once it is.
        var closedListSectionCounts: [Int] = []
        /// The first section (in ``ends``) of the list being filled.
        var openListFirstSection = 0
        /// The first section (in ``ends``) of the first list not yet seen by
        /// ``handOverClosedLists(numbering:_:)``.
        var firstSectionToHandOver = 0
        /// The rules in ``closedLists``: where `rules` starts among all the sections' rules.
        var closedRuleCount = 0
        /// The JSON bytes of each section, parallel to ``ends``, when ``packing`` counted them.
        var byteCounts: [Int] = []

        /// The rules of all the sections.
        var ruleCount: Int { closedRuleCount + rules.count }

        /// Gives the rules appended without a part none, so that the next part appended is its
        /// rule's.
        mutating func alignParts() {
            if recordsParts, parts.count < rules.count { parts += repeatElement(nil, count: rules.count - parts.count) }
        }

        /// Closes the section begun at the last end, unless no rules were appended since; drops
        /// it when its input is left out.
        mutating func endSection(_ origin: Origin = .configuration("")) {
            let start = (ends.last ?? 0) - closedRuleCount
            guard rules.count > start else { return }
            alignParts()
            if !leftOut.isEmpty, leftOut.contains(origin) {
                rules.removeSubrange(start...)
                if recordsParts { parts.removeSubrange(start...) }
                return
            }
            if packing != nil, !pack(sectionAt: start, origin: origin) { return }
            ends.append(ruleCount)
            origins.append(origin)
        }

        /// The sections, leaving none behind, so that the caller holds the only reference to
        /// their rules (`consume sections` in the caller crashes this compiler: "a compiler bug").
        mutating func take() -> Sections {
            let taken = self
            self = Sections(recordsParts: recordsParts)
            return taken
        }

        /// Rules of one list up to `end` (exclusive) that came from `origin`.
        struct Span {
            var end: Int
            var origin: Origin
        }
    }

    /// The input a section of rules was made from, for reports.
    enum Origin: Hashable {
        case tracker(String)
        case cname(String)
        /// An entity whose trackers have lists of their own: the one first-party exception that
        /// ends each of them (``ListGroup/trailer``).
        case entity(String)
        /// A JSON path in the privacy configuration, or another description.
        case configuration(String)

        /// The source a rule made from this input names.
        var source: RuleSource {
            switch self {
            case .tracker(let key): RuleSource(kind: .tracker, name: key)
            case .cname(let host): RuleSource(kind: .cname, name: host)
            case .entity(let name): RuleSource(kind: .entity, name: name)
            case .configuration(let path): RuleSource(kind: .configuration, name: path)
            }
        }

        var path: String {
            switch self {
            case .tracker(let key): JSONPath.root.appending(key: "trackers").appending(key: key).description
            case .cname(let host): JSONPath.root.appending(key: "cnames").appending(key: host).description
            case .entity(let name): JSONPath.root.appending(key: "entities").appending(key: name).description
            case .configuration(let path): path
            }
        }
    }

    /// The sections of one kind of list: the main lists, or the lists of one entity whose
    /// trackers share one first-party exception (``trailer``), which ends each of its lists
    /// before the configuration's rules.
    struct ListGroup {
        var sections = Sections()
        /// Rules that end every list of the group, before the configuration's rules.
        var trailer: [ContentRule] = []
        /// The input of each rule of ``trailer``.
        var trailerOrigins: [Origin] = []
        /// Whether the group makes a list even without sections: the main lists do, so that a
        /// build always has one; an entity's group without sections has nothing to say.
        var isMain = false

        /// The name of the group's lists: `kind` for the main lists, the entity's otherwise.
        func name(kind: String) -> String {
            guard !isMain, case .entity(let entity)? = trailerOrigins.first else { return kind }
            return kind == "main" ? "entity \"\(entity)\"" : "\(kind) entity \"\(entity)\""
        }
    }

    /// Where the rules of one list come from: ranges of its group's sections, by section index,
    /// with their count and JSON bytes (``ContentRuleList/RuleByteCounter``).
    private struct PackedList {
        var ranges: [(range: Range<Int>, section: Int)] = []
        var ruleCount = 0
        var ruleBytes = 0
    }

    /// The limits of each list of one kind, and the kind's name for reports and refusals.
    struct ListLimits {
        /// The most rules a list may have.
        var maximum: Int
        /// The most JSON bytes a list may have.
        var byteBudget: Int
        /// The name of the kind of list: `main`, `Click-to-Load "block-ctl-fb"`, `cookie`.
        var kind: String
    }

    /// Packs whole sections into lists of at most `limits.maximum` rules and
    /// `limits.byteBudget` bytes of JSON, and repeats the configuration tail at the end of
    /// each, since an `ignore-previous-rules` only cancels rules of its own list; each list of a
    /// group ends with the group's trailer before the tail. Also returns where the rules of each
    /// list came from, and notes each list's size in `report` (``BuildReport/listSizes``).
    ///
    /// Nothing is allocated for a list before every group is known to fit: a tail that leaves
    /// a list no room for the longest section, or that the lists would repeat more often than
    /// the sections and one more list hold, is refused, naming the tail's parts; a section that
    /// with the tail is more JSON than the budget is refused, naming it and its list.
    ///
    /// The sections of `groups` are taken as their lists are made: a caller that kept a copy
    /// of them (a consuming parameter does not prevent it) would make every list a copy. A list
    /// that the packing handed over as it was closed (``Sections/handOverClosedLists(numbering:_:)``)
    /// is an empty list here, and `handedOver` says its number (nil for the others).
    static func split(
        _ groups: inout [ListGroup], tail: [ContentRule], tailOrigins: [Origin], limits: ListLimits, target: WebKitTarget,
        report: inout BuildReport
    ) throws(RuleListBuildError) -> (lists: [RuleList], origins: [[Sections.Span]], parts: [[RuleSource.Part?]], handedOver: [Int?]) {
        var counter = RuleByteCounter()
        let tailBytes = counter.byteCount(of: tail)
        var plans: [[PackedList]] = []
        for index in groups.indices {
            plans.append(try pack(
                groups[index], tailCount: tail.count, tailBytes: tailBytes, tailOrigins: tailOrigins, limits: limits,
                counter: &counter, report: &report))
        }
        var lists: [RuleList] = []
        var spans: [[Sections.Span]] = []
        var parts: [[RuleSource.Part?]] = []
        var handedOver: [Int?] = []
        for (index, packed) in plans.enumerated() where !packed.isEmpty {
            var group = ListGroup(
                sections: groups[index].sections.take(), trailer: groups[index].trailer,
                trailerOrigins: groups[index].trailerOrigins, isMain: groups[index].isMain)
            let name = group.name(kind: limits.kind)
            let ending = (count: group.trailer.count + tail.count, bytes: counter.byteCount(of: group.trailer) + tailBytes)
            let made = makeLists(of: &group, packed: packed, tail: tail, tailOrigins: tailOrigins, target: target)
            for (number, (plan, list)) in zip(packed, made.lists).enumerated() {
                // An empty list holds a placeholder rule (RuleList(nonEmpty:)), measured here; a
                // list handed over holds its plan's rules and ending.
                let isPlaceholder = plan.ruleCount + ending.count == 0
                let ruleBytes = isPlaceholder ? counter.byteCount(of: list.rules) : plan.ruleBytes + ending.bytes
                let ruleCount = made.handedOver[number] == nil ? list.rules.count : plan.ruleCount + ending.count
                report.listSizes.append(RuleListSize(
                    name: packed.count == 1 ? "\(name) list" : "\(name) list \(number + 1) of \(packed.count)",
                    ruleCount: ruleCount, ruleLimit: limits.maximum,
                    byteCount: RuleByteCounter.listByteCount(ruleBytes: ruleBytes, ruleCount: ruleCount),
                    byteBudget: limits.byteBudget))
            }
            lists += made.lists
            spans += made.origins
            parts += made.parts
            handedOver += made.handedOver
        }
        return (lists, spans, parts, handedOver)
    }

    /// The source of each rule of each list, from the spans of its origins and the part of its
    /// tracker each rule says; a rule past the last span (the placeholder of a list without
    /// rules) is the builder's own.
    static func sources(of lists: [RuleList], spans: [[Sections.Span]], parts: [[RuleSource.Part?]]) -> [[RuleSource]] {
        zip(lists, zip(spans, parts)).map { list, spansAndParts in
            let (spans, parts) = spansAndParts
            var sources: [RuleSource] = []
            sources.reserveCapacity(list.rules.count)
            for span in spans {
                var source = span.origin.source
                while sources.count < min(span.end, list.rules.count) {
                    source.part = sources.count < parts.count ? parts[sources.count] : nil
                    sources.append(source)
                }
            }
            let placeholder = RuleSource(kind: .configuration, name: "(the placeholder rule of a list without rules)")
            while sources.count < list.rules.count { sources.append(placeholder) }
            return sources
        }
    }

    /// The lists of one group, as ranges of its sections; none for an entity's group without
    /// sections. Throws when the trailer and tail leave too little room (see ``split(_:tail:tailOrigins:limits:target:report:)``).
    private static func pack(
        _ group: ListGroup, tailCount: Int, tailBytes: Int, tailOrigins: [Origin], limits: ListLimits,
        counter: inout RuleByteCounter, report: inout BuildReport
    ) throws(RuleListBuildError) -> [PackedList] {
        let maximum = limits.maximum
        let sections = group.sections
        let repeated = group.trailer.count + tailCount
        // Each list's brackets, trailer and tail.
        let repeatedBytes = 1 + counter.byteCount(of: group.trailer) + tailBytes
        // Sections longer than a list are the tracker's own: they are skipped below, with a note.
        var largest = 0
        var start = 0
        for end in sections.ends {
            if end - start <= maximum { largest = max(largest, end - start) }
            start = end
        }
        func parts() -> [RuleListBuildError.Part] { RuleListBuildError.parts(of: group.trailerOrigins + tailOrigins) }
        if repeated + largest > maximum {
            throw .configurationFillsList(parts: parts(), trackerRules: largest, maximum: maximum)
        }
        let listName = "\(group.name(kind: limits.kind)) list"
        if repeatedBytes > limits.byteBudget {
            let named = parts().prefix(3).map(\.description).joined(separator: ", ")
            throw .partExceedsByteBudget(
                list: listName, part: "the rules that end every list (\(named))", byteCount: repeatedBytes, budget: limits.byteBudget)
        }
        let room = maximum - repeated
        let byteRoom = limits.byteBudget - repeatedBytes
        var packed: [PackedList] = []
        var current = PackedList()
        start = 0
        for (sectionIndex, end) in sections.ends.enumerated() {
            let section = start..<end
            start = end
            if section.count > room {
                report.skippedRules.append(.init(path: sections.origins[sectionIndex].path, reason: "\(section.count) rules, more than one list allows"))
                continue
            }
            // Counted as the section ended, when it was packed then; all rules are in `rules` otherwise.
            let bytes = sections.byteCounts.count == sections.ends.count
                ? sections.byteCounts[sectionIndex] : counter.byteCount(of: sections.rules[section])
            if bytes > byteRoom {
                throw .partExceedsByteBudget(
                    list: listName, part: sections.origins[sectionIndex].path + " with the rules that end every list",
                    byteCount: bytes + repeatedBytes, budget: limits.byteBudget)
            }
            if !current.ranges.isEmpty, current.ruleCount + section.count > room || current.ruleBytes + bytes > byteRoom {
                packed.append(current)
                current = PackedList()
            }
            current.ranges.append((section, sectionIndex))
            current.ruleCount += section.count
            current.ruleBytes += bytes
        }
        if !current.ranges.isEmpty || (packed.isEmpty && group.isMain) { packed.append(current) }
        // Each list repeats the trailer and tail: past one list's worth more than the sections
        // themselves, the output would grow with tail × sections rather than tail + sections.
        if repeated > 0, (packed.count - 1) * repeated > sections.ruleCount + maximum {
            throw .configurationRepeatedTooOften(
                parts: parts(), trackerRules: sections.ruleCount, listCount: packed.count, maximum: maximum)
        }
        return packed
    }

    /// The lists of `packed`, each with the group's trailer and the tail at its end; the parts
    /// of their rules empty unless the sections record them. A list that is exactly one array of
    /// the sections (all of them in one list, or one that ``Sections/packing`` filled) is made
    /// from that array in place, without a copy of each rule.
    private static func makeLists(
        of group: inout ListGroup, packed: [PackedList], tail: [ContentRule], tailOrigins: [Origin], target: WebKitTarget
    ) -> (lists: [RuleList], origins: [[Sections.Span]], parts: [[RuleSource.Part?]], handedOver: [Int?]) {
        let ending = group.trailer + tail
        let endingOrigins = group.trailerOrigins + tailOrigins
        func endingSpans(after count: Int) -> [Sections.Span] {
            endingOrigins.enumerated().map { Sections.Span(end: count + $0.offset + 1, origin: $0.element) }
        }
        var sections = group.sections.take()
        sections.alignParts()
        let recordsParts = sections.recordsParts
        let endingParts = [RuleSource.Part?](repeating: nil, count: recordsParts ? ending.count : 0)
        let origins = sections.origins
        // The arrays the sections were filled in, taken so that each is held only here.
        var filled = sections.closedLists
        filled.append((sections.rules, sections.parts, sections.rules.count, true, nil))
        sections = Sections(recordsParts: recordsParts)
        var starts: [Int] = []
        var counts: [Int] = []
        for array in filled {
            starts.append((starts.last ?? 0) + (counts.last ?? 0))
            counts.append(array.ruleCount)
        }
        // Ranges come in order across the lists: the array holding the next one is at or after
        // the previous one's.
        var cursor = 0
        var spans: [[Sections.Span]] = []
        var parts: [[RuleSource.Part?]] = []
        var handedOver: [Int?] = []
        let lists = packed.map { packedList in
            var listSpans: [Sections.Span] = []
            var ruleCount = 0
            for (range, section) in packedList.ranges {
                ruleCount += range.count
                listSpans.append(Sections.Span(end: ruleCount, origin: origins[section]))
            }
            let allSpans = listSpans + endingSpans(after: ruleCount)
            var list: [ContentRule] = []
            var listParts: [RuleSource.Part?] = []
            let whole = wholeArray(packedList, starts: starts, counts: counts, from: cursor)
            if let index = whole, let number = filled[index].handedOver {
                // Handed over with its ending as it was closed: an empty list in its place.
                cursor = index
                spans.append(allSpans)
                parts.append([])
                handedOver.append(number)
                return RuleList([])
            }
            handedOver.append(nil)
            if let index = whole {
                swap(&list, &filled[index].rules)
                swap(&listParts, &filled[index].parts)
                cursor = index
            } else {
                list.reserveCapacity(packedList.ruleCount + ending.count)
                if recordsParts { listParts.reserveCapacity(packedList.ruleCount + ending.count) }
                for (range, _) in packedList.ranges {
                    var index = range.lowerBound
                    while index < range.upperBound {
                        while index >= starts[cursor] + counts[cursor] { cursor += 1 }
                        let offset = index - starts[cursor]
                        let end = min(range.upperBound - starts[cursor], counts[cursor])
                        list += filled[cursor].rules[offset..<end]
                        if recordsParts { listParts += filled[cursor].parts[offset..<end] }
                        index = starts[cursor] + end
                    }
                }
            }
            list += ending
            var allParts = listParts + endingParts
            var laidOutSpans = allSpans
            // The host-end layout moves rules across sections: their parts and origins go along.
            if let order = HostEndLayout.order(of: list) {
                if allParts.count == list.count { allParts = order.map { allParts[$0] } }
                list = order.map { list[$0] }
                laidOutSpans = reordered(allSpans, by: order)
            }
            spans.append(laidOutSpans)
            parts.append(allParts)
            return RuleList(nonEmpty: list, target: target)
        }
        return (lists, spans, parts, handedOver)
    }

    /// `spans` (the origin of each rule up to its end) for the rules put in `order`
    /// (`order[i]`: the rule now at `i`).
    private static func reordered(_ spans: [Sections.Span], by order: [Int]) -> [Sections.Span] {
        var origins: [Origin] = []
        origins.reserveCapacity(order.count)
        for span in spans {
            while origins.count < span.end { origins.append(span.origin) }
        }
        var result: [Sections.Span] = []
        for (position, index) in order.enumerated() where index < origins.count {
            if let last = result.last, last.origin == origins[index], last.end == position {
                result[result.count - 1].end = position + 1
            } else {
                result.append(Sections.Span(end: position + 1, origin: origins[index]))
            }
        }
        return result
    }

    /// The index of the array of `starts` and `counts` (at or after `first`) that holds exactly
    /// the rules of `packed`, in order; nil when its rules are not one whole array.
    private static func wholeArray(_ packed: PackedList, starts: [Int], counts: [Int], from first: Int) -> Int? {
        guard let lower = packed.ranges.first?.range.lowerBound, var upper = packed.ranges.first?.range.lowerBound else { return nil }
        for (range, _) in packed.ranges {
            guard range.lowerBound == upper else { return nil }
            upper = range.upperBound
        }
        guard let index = starts.indices[first...].first(where: { starts[$0] == lower && counts[$0] > 0 }) else { return nil }
        return starts[index] + counts[index] == upper ? index : nil
    }
}

private extension RuleList {
    /// A list of `rules`, or of one rule that changes nothing when there are none: WebKit rejects
    /// an empty list ("Empty extension.").
    init(nonEmpty rules: [ContentRule], target: WebKitTarget) {
        guard rules.isEmpty else {
            self.init(rules)
            return
        }
        let placeholder = ContentRule(trigger: Trigger(urlFilter: ".*", resourceTypes: [.topDocument]), action: .ignorePreviousRules)
        self.init(target.lowered(placeholder) ?? [placeholder])
    }
}
