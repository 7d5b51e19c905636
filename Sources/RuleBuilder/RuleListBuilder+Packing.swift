import ContentRuleList

// Packing as sections end: the sections of a large build would otherwise sit in one array grown
// by doubling (2²³ slots of 88 bytes for 6 million rules) and then be copied list by list into
// the lists, both alive at once. Each section is lowered for the target and its bytes counted
// as it ends, and where it does not fit in the list being filled, that list's rules are set aside
// in an array of their own, which becomes the list. The plan itself is still made by
// `RuleListBuilder.split`, from the same counts: where it differs (a section too long for any
// list), the list is copied from these arrays as before.

extension RuleListBuilder.Sections {
    /// How a group's sections are lowered and packed as they end: the limits of
    /// ``RuleListBuilder/split(_:tail:tailOrigins:limits:target:report:)`` for the group, and the
    /// list being filled.
    struct Packing {
        /// The WebKit the rules are lowered for.
        var target: WebKitTarget
        /// The sections' rules a list holds: its most rules less those that end every list.
        var room: Int
        /// The sections' JSON bytes a list holds.
        var byteRoom: Int
        /// The most rules of a list, the ending included: the capacity each list's array is made with.
        var listCapacity: Int
        /// The rules and bytes of the sections packed into the list being filled.
        var ruleCount = 0
        var ruleBytes = 0
        var counter = RuleByteCounter()
        /// What lowering approximated, in section order, for the build's report.
        var approximations: [BuildReport.Note] = []
        /// The rules that end each list (the group's trailer, then the configuration's tail,
        /// lowered) where each list is handed over as it is closed
        /// (``RuleListBuilder/Sections/handOverClosedLists(numbering:_:)``); nil otherwise.
        var ending: [ContentRule]?
        /// Whether a section that `split` leaves out (longer than a list) lies among the rules of
        /// the list being filled: that list is then not one whole array of the plan's sections.
        var passedOverSection = false
        /// What the group's rules so far cancel, for the blocks each section writes in the
        /// host-end layout (``HostEndLayout``), before its rules are counted.
        var hostEnds = HostEndLayout.Movability()

        /// The packing of a group whose every list ends with `endingCount` rules of
        /// `endingBytes` bytes (its trailer, then the configuration's tail), as `split` packs it.
        init(limits: RuleListBuilder.ListLimits, endingCount: Int, endingBytes: Int, target: WebKitTarget) {
            self.target = target
            room = limits.maximum - endingCount
            byteRoom = limits.byteBudget - (1 + endingBytes)
            listCapacity = limits.maximum
        }
    }

    /// Lowers the section that starts at `start` in ``rules`` and packs it: where the list being
    /// filled has no room for it, that list's rules are set aside in ``closedLists`` and the
    /// section begins the next. False when lowering left nothing of the section.
    mutating func pack(sectionAt start: Int, origin: RuleListBuilder.Origin) -> Bool {
        guard var packing = self.packing.take() else { return true }
        defer { self.packing = packing }
        packing.target.lower(
            sectionAt: start, of: &rules, parts: &parts, recordsParts: recordsParts, origin: origin,
            approximations: &packing.approximations)
        guard rules.count > start else { return false }
        if HostEndLayout.isUsed(for: packing.target) {
            HostEndLayout.expand(sectionAt: start, of: &rules, parts: &parts, recordsParts: recordsParts, movability: &packing.hostEnds)
        }
        let count = rules.count - start
        let bytes = packing.counter.byteCount(of: rules[start...])
        byteCounts.append(bytes)
        // `split` leaves out a section longer than a list and refuses one with more bytes: the
        // list being filled goes on after it.
        guard count <= packing.room, bytes <= packing.byteRoom else {
            packing.passedOverSection = true
            return true
        }
        if packing.ruleCount > 0, packing.ruleCount + count > packing.room || packing.ruleBytes + bytes > packing.byteRoom {
            closeList(
                before: start, capacity: packing.listCapacity, ending: packing.listCapacity - packing.room,
                isWhole: !packing.passedOverSection)
            packing.ruleCount = 0
            packing.ruleBytes = 0
            packing.passedOverSection = false
        }
        packing.ruleCount += count
        packing.ruleBytes += bytes
        return true
    }

    /// Sets aside the rules before `start` as a list's, with room for the `ending` rules that end
    /// it; the rules from `start` begin the next list's array, made with `capacity`. `isWhole`:
    /// the rules set aside are exactly the list's, as `split` will plan it.
    private mutating func closeList(before start: Int, capacity: Int, ending: Int, isWhole: Bool) {
        var next: [ContentRule] = []
        next.reserveCapacity(capacity)
        next += rules[start...]
        rules.removeSubrange(start...)
        var nextParts: [RuleSource.Part?] = []
        if recordsParts {
            nextParts.reserveCapacity(capacity)
            nextParts += parts[start...]
            parts.removeSubrange(start...)
        }
        closedRuleCount += rules.count
        closedListSectionCounts.append(ends.count - openListFirstSection)
        openListFirstSection = ends.count
        closedLists.append((
            Self.trimmed(rules, room: ending), recordsParts ? Self.trimmed(parts, room: ending) : [], rules.count, isWhole, nil))
        rules = next
        parts = nextParts
    }

    /// Whether ``closedLists`` holds lists not yet handed over that
    /// ``handOverClosedLists(numbering:_:)`` would hand over.
    var hasListsToHandOver: Bool { packing?.ending != nil && handedOverCount < closedLists.count }

    /// Hands each list closed since the last call that is one whole array of its sections to
    /// `handOver`, numbered from `next` on, with the rules that end it (``Packing/ending``), and
    /// keeps only its rule count and number: `split` then puts an empty list in its place. Its
    /// sections become one, whose end, bytes and first origin `split` plans the list from as
    /// before (they fitted in one list, and the section before and the one after did not fit
    /// with them), so that a build of a million sections does not hold each one's end, origin
    /// and bytes: the spans of its origins are then not each section's. Does nothing unless the
    /// packing has an ending, nor where the rules' parts are recorded, which the build's sources
    /// read at the end, with each section's origin.
    mutating func handOverClosedLists(numbering next: inout Int, _ handOver: (Int, RuleList) -> Void) {
        guard let ending = packing?.ending, !recordsParts else { return }
        while handedOverCount < closedLists.count {
            let index = handedOverCount
            handedOverCount += 1
            let sections = firstSectionToHandOver..<(firstSectionToHandOver + closedListSectionCounts[index])
            guard closedLists[index].isWhole else {
                firstSectionToHandOver = sections.upperBound
                continue
            }
            var list: [ContentRule] = []
            swap(&list, &closedLists[index].rules)
            list += ending
            handOver(next, RuleList(HostEndLayout.laidOut(list)))
            closedLists[index].handedOver = next
            next += 1
            if sections.count > 1 {
                byteCounts.replaceSubrange(sections, with: [byteCounts[sections].reduce(0, +)])
                ends.replaceSubrange(sections, with: [ends[sections.upperBound - 1]])
                origins.replaceSubrange(sections, with: [origins[sections.lowerBound]])
                openListFirstSection -= sections.count - 1
                closedListSectionCounts[index] = 1
            }
            firstSectionToHandOver = sections.lowerBound + 1
        }
    }

    /// `array`, or a copy of it with room for `room` more elements where its capacity is well
    /// over that (the first list's array grew by doubling): the lists of a build are all alive
    /// at once.
    private static func trimmed<Element>(_ array: [Element], room: Int) -> [Element] {
        let needed = array.count + max(0, room)
        guard array.capacity < needed || array.capacity > needed + needed / 8 else { return array }
        var copy: [Element] = []
        copy.reserveCapacity(needed)
        copy += array
        return copy
    }
}
