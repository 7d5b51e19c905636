public import ContentRuleList
public import TrackerDataKit
public import TrackerlessCore

/// Builds WebKit content-blocker rule lists from Tracker Radar data and a privacy configuration,
/// so that WebKit blocks exactly what `TrackerResolver` decides to block.
///
/// ```swift
/// let tds = try TrackerData(contentsOfFile: "tds.json")
/// let build = RuleListBuilder(trackerData: tds).build()
/// let json = build.ruleLists[0].encoded()   // hand to WKContentRuleListStore
/// ```
///
/// The list is laid out in sections, each self-contained:
/// 1. one `TrackerSection` per tracker, sorted by domain (a tracker nested in another tracker's
///    domain comes after it and starts by cancelling the outer tracker's rules);
/// 2. one section per CNAME-cloaked host whose target is a tracker, scoped to that exact host;
/// 3. the privacy configuration: request-blocklist blocks, then the exceptions that switch
///    protection off (tracker allowlist, unprotected and user-allowlisted sites), then the loads
///    the resolver never blocks (top-level navigations and popups).
///
/// For a target that decides third party by registrable domain (Safari 16 and later, WebKitGTK),
/// each list is then laid out for WebKit's compile time: the trackers' host-only blocks that no
/// earlier exception can cancel, and whose hosts no other rule of their sections keeps in an
/// automaton of its own, go first with fixed host ends, each as four rules, with one exception for
/// URLs with a password (the article "How the rules keep the resolver's meaning").
///
/// A company whose trackers' first-party exceptions, each naming all its sites, would be large
/// (``Settings/minimumBytesSavedByEntityList``), or repeat the most site entries
/// (``Settings/entityListsForMostSiteEntries``), gets lists of its own: its tracker and CNAME
/// sections, then one exception naming its sites for all of them, then the configuration's rules
/// (see RuleListBuilder+EntityLists.swift). A configuration that cannot fit beside the trackers'
/// rules is refused (``RuleListBuild/refusal``).
///
/// Click-to-Load rules (`block-ctl-fb`, `block-ctl-yt`) are not in those lists: each rule action
/// gets a list of its own, laid out the same way (``RuleListBuild/clickToLoadActions`` says which
/// list is whose), so that a host removes that list for a page where the user clicked to load
/// the embed (``RuleListBuild/ruleLists(unblocking:)``). An action gets no list where the
/// resolver never blocks it: with a privacy configuration, one that no enabled entity of the
/// `clickToLoad` feature lists. Its list also lets the embeds load on the sites of the entity
/// that lists the action and on the `clickToLoad` feature's exception sites.
public struct RuleListBuilder: Sendable {
    /// How the output is shaped; the defaults are what the reference tests are run with.
    public struct Settings: Sendable, Hashable {
        /// How a condition on the page's site is written.
        public enum SiteConditionStyle: String, Sendable, Hashable, CaseIterable {
            /// `if-domain: ["*example.com"]`: WebKit's own form. WebKit rewrites it into an
            /// unanchored regex, so a page URL that merely contains `://example.com/` in its query
            /// also matches.
            case ifDomain = "if-domain"
            /// `if-top-url: ["^[^:]+://+([^/]+[.@])?example\.com[:/]"]`: anchored at the page's
            /// host (after any userinfo), which is the resolver's meaning. A page host spelled with
            /// its final dot (`example.com.`) is another site to both.
            case topURL = "if-top-url"
        }

        /// How page-site conditions are written.
        public var siteConditionStyle: SiteConditionStyle
        /// Whether a rule also matches when its text appears in the path or query of a tracker
        /// URL, as the resolver's unanchored regex does (`https://t.example/r?u=t.example/pixel`).
        /// Off by default: it adds one url-filter with a `.*` per rule, which about doubles
        /// WebKit's compile time, for URLs that real traffic hardly has (none of the 43,421 real
        /// request/site pairs of the real-data test differ without it). On, the rules are exact.
        public var matchesRuleTextAfterHost: Bool
        /// The most rules in one list; WebKit rejects more than 150,000.
        public var maximumRulesPerList: Int
        /// The most JSON bytes in one list; nil (the default) means the target's
        /// (`WebKitTarget.jsonByteBudget`: 19 MB, 10 MB for Safari 17). Lists
        /// are split to stay within it where an exception keeps its meaning; a part that cannot
        /// be split and is larger is refused (``RuleListBuildError/partExceedsByteBudget(list:part:byteCount:budget:)``).
        public var maximumBytesPerList: Int?
        /// The WebKit the lists are for: they use only what it knows, with the resolver's meaning
        /// as it evaluates them. The default, `WebKitTarget.oldest`, makes lists
        /// that every supported WebKit compiles and gives the same meaning.
        public var target: WebKitTarget
        /// The JSON bytes that lists of an entity's own must save before its trackers get them
        /// whatever ``entityListsForMostSiteEntries`` chooses; `Int.max`, with that 0, keeps every
        /// tracker in the main lists.
        ///
        /// Each tracker's section ends with an exception naming its owner's sites, so an entity
        /// with T trackers and S sites costs T × S site patterns (extension-tds.json: 1,803 × 1,803,
        /// 146 MB). In lists of its own one exception naming the S sites ends each list and covers
        /// all T trackers, since there it cancels nothing else: T + S, plus the configuration's
        /// rules, which every list repeats. Each further list costs WebKit a little on every
        /// load, so it is made only when it saves at least this much (1 MB by default).
        public var minimumBytesSavedByEntityList = 1_000_000
        /// How many entities get lists of their own for the site entries they take out of
        /// WebKit's compilation, besides those over ``minimumBytesSavedByEntityList``: the ones
        /// whose tracker and CNAME sections carry the most first-party site entries (sections ×
        /// sites), equal ones by name; 0 chooses by bytes alone.
        ///
        /// WebKit compiles every rule's `if-top-url` entries with an action of that rule's own,
        /// so the same sites repeated in many sections are compiled again each time
        /// (apple-tds.json: Microsoft's 366 sites in 20 sections, Adobe's 57 in 121); in an
        /// entity's own list they are one exception's. With the 20 such owners of apple-tds.json
        /// the main list's entries fall from about 27,800 to 6,400, and its lists compile in
        /// about 0.1 less of the time DuckDuckGo's list takes (BENCHMARKS.md, "WebKit compile
        /// time of our list"), for about 0.5 µs a list on each load. Cookie lists
        /// (`CookieRules`) choose by bytes alone.
        public var entityListsForMostSiteEntries = 20
        /// The fewest site entries (sections × sites) for which ``entityListsForMostSiteEntries``
        /// gives an entity lists of its own: below it a list more costs each load more than the
        /// compilation saves (apple-tds.json's 20th owner carries 126).
        public var minimumSiteEntriesForEntityList = 100
        /// Whether the build says where each rule came from (``RuleListBuild/sources``): one
        /// ``RuleSource`` per rule, and while the lists are made the part of its tracker each
        /// rule says. On by default. Off, ``RuleListBuild/sources`` is empty and the build holds
        /// none of them: at 1,000,000 trackers (6,000,000 rules) they were about a fifth of its
        /// peak memory. The lists are the same either way.
        public var recordsRuleSources = true

        /// Settings with the given values.
        public init(
            siteConditionStyle: SiteConditionStyle = .topURL,
            matchesRuleTextAfterHost: Bool = false,
            maximumRulesPerList: Int = RuleList.maximumRuleCount,
            target: WebKitTarget = .oldest,
            maximumBytesPerList: Int? = nil
        ) {
            self.siteConditionStyle = siteConditionStyle
            self.matchesRuleTextAfterHost = matchesRuleTextAfterHost
            self.maximumRulesPerList = max(1, min(maximumRulesPerList, target.maximumRuleCount))
            self.target = target
            self.maximumBytesPerList = maximumBytesPerList
        }

        /// The JSON bytes a list may take: ``maximumBytesPerList``, or the target's budget.
        public var byteBudget: Int { max(2, maximumBytesPerList ?? target.jsonByteBudget) }

        /// Whether the first-party rules must name a tracker's own `site`: where WebKit decides
        /// third party by origin (or, in WebKitGTK 2.44, by host under a top-level domain the
        /// Public Suffix List does not list), a tracker's load from another host of its own site
        /// is third party to WebKit and first party to the resolver. The oldest target may run in
        /// any supported WebKit; naming the site there is right in all of them.
        func namesAsFirstParty(trackerSite site: String, publicSuffixList: PublicSuffixList) -> Bool {
            target.mayFindOwnSiteThirdParty(site, publicSuffixList: publicSuffixList)
        }

        /// The trigger condition "the page is on one of these domains or their subdomains".
        func siteCondition(for domains: [String], includingSubdomains: Bool = true) -> Condition {
            siteCondition(patterns: domains.map { sitePattern(for: $0, includingSubdomains: includingSubdomains) })
        }

        /// The trigger condition for entries already written by ``sitePattern(for:includingSubdomains:)``.
        func siteCondition(patterns: [String]) -> Condition {
            switch siteConditionStyle {
            case .ifDomain: return .ifDomain(patterns)
            case .topURL: return .ifTopURL(patterns)
            }
        }

        // The fixed parts of `if-top-url` entries as bytes: appending a String's UTF-8 view goes
        // byte by byte.
        private static let sitePrefix = Array((HostScope.schemePrefix + HostScope.userinfoPrefix).utf8)
        private static let sitePrefixWithSubdomains = Array((HostScope.schemePrefix + HostScope.subdomainPrefix).utf8)
        // Unlike request url-filters, a site pattern ends with a plain `[:/]`: a quantified term
        // after each site (`\.?`, `(:[0-9]+)?`) makes WebKit build one automaton per site, which
        // made the apple-tds list compile about 1.6 times slower again, for page URLs that
        // carry a final dot or a user named like the site.
        private static let siteSuffix = Array("[:/]".utf8)

        /// One entry of a site condition.
        func sitePattern(for domain: String, includingSubdomains: Bool = true) -> String {
            switch siteConditionStyle {
            case .ifDomain:
                return includingSubdomains ? "*" + domain : domain
            case .topURL:
                // Written as bytes into one buffer: this runs for every domain of `domains`.
                var pattern: [UInt8] = []
                pattern.reserveCapacity(32 + domain.utf8.count)
                pattern += includingSubdomains ? Self.sitePrefixWithSubdomains : Self.sitePrefix
                TrackerRuleRegex.appendEscapedDomain(domain, to: &pattern)
                pattern += Self.siteSuffix
                return String(decoding: pattern, as: UTF8.self)
            }
        }
    }

    /// The tracker blocklist.
    public private(set) var trackerData: TrackerData
    /// The privacy configuration (allowlists, unprotected sites, request blocklist); nil means
    /// tracker blocking on everywhere, as for `TrackerResolver`.
    public let configuration: PrivacyConfiguration?
    /// Sites where the user turned protection off.
    public let userAllowlist: UserAllowlist
    /// Output shape.
    public let settings: Settings
    /// Registrable domains, to leave out first-party pages that WebKit already treats as first party.
    public let publicSuffixList: PublicSuffixList
    /// The Click-to-Load action whose list this builder makes; nil for the main lists.
    var clickToLoadAction: String?
    /// Whether each tracker's `block-ctl-*` rules are left out (made rules that never apply), as
    /// in the main lists.
    var removesClickToLoadRules = false

    /// A builder for the given inputs.
    public init(
        trackerData: TrackerData,
        configuration: PrivacyConfiguration? = nil,
        userAllowlist: UserAllowlist = UserAllowlist(),
        settings: Settings = Settings(),
        publicSuffixList: PublicSuffixList = .bundled
    ) {
        self.trackerData = trackerData
        self.configuration = configuration
        self.userAllowlist = userAllowlist
        self.settings = settings
        self.publicSuffixList = publicSuffixList
        var sitesByEntity: [String: [String]] = [:]
        sitesByEntity.reserveCapacity(trackerData.entities.count)
        for (domain, entity) in trackerData.domains {
            if let site = SiteDomain.normalized(domain) { sitesByEntity[entity, default: []].append(site) }
        }
        self.sitesByEntity = sitesByEntity.mapValues { sites in
            Self.outermost(sites).map { FirstPartySite(domain: $0, pattern: settings.sitePattern(for: $0)) }
        }
    }

    /// A site of an entity with its condition pattern, written once and shared by all rules.
    struct FirstPartySite {
        var domain: String
        var pattern: String
    }

    /// The sites (outermost domains) that `domains` gives to each entity.
    let sitesByEntity: [String: [FirstPartySite]]

    /// Builds the rule lists: usually one main list, more when the rules exceed
    /// ``Settings/maximumRulesPerList``, then one per Click-to-Load rule action. Install all of
    /// them, but on a page where the user clicked to load (``RuleListBuild/ruleLists(unblocking:)``).
    ///
    /// Every list is one that `RuleList.validate()` accepts (checked with
    /// `RuleList.validateTriggers()`, which gives the same answer for a built
    /// list at a fraction of the cost): an input whose rules WebKit would refuse (a tracker
    /// domain too long for a url-filter, say) is left out, with a note in
    /// ``BuildReport/skippedRules`` naming it and WebKit's error.
    public func build() -> RuleListBuild { build(checkingTriggers: true) }

    /// ``build()``, or with `checkingTriggers` false the same lists without the check: they may
    /// then hold a rule WebKit would refuse. A caller that skips the check here runs
    /// `RuleList.validateTriggers()` on each list itself (beside other work,
    /// say), and calls ``build()`` when one fails, for the lists without that input and the note
    /// saying why; when every list passes, the lists are those of ``build()``.
    public func build(checkingTriggers: Bool) -> RuleListBuild {
        var builder = self
        return builder.buildParts(checkingTriggers: checkingTriggers, lettingGoOfRules: false).build
    }

    /// ``build(checkingTriggers:)`` without the check, letting go of each tracker's rules once
    /// its section is made (but those of a CNAME's target, whose section comes later): the
    /// blocklist's rules and the lists are not all alive at once, which at 1,000,000 trackers
    /// is about a quarter of the build's peak. The lists are those of `build(checkingTriggers: false)`.
    ///
    /// The builder is left with trackers without rules: call it once, on a builder that holds the
    /// only copy of its blocklist (another copy keeps every rule alive, and the first tracker let
    /// go then copies the blocklist's table). Where a list fails `RuleList.validateTriggers()`,
    /// ``build()`` needs the blocklist again: make a builder from it anew.
    public mutating func buildLettingGoOfTrackerRules() -> RuleListBuild {
        buildParts(checkingTriggers: false, lettingGoOfRules: true).build
    }

    /// ``buildLettingGoOfTrackerRules()`` that hands each main list to `handOver` as soon as its
    /// last section is packed, numbered from 0 in the order handed over, and lets go of it: the
    /// finished lists are not all alive at once. `build.ruleLists` holds an empty list in the
    /// place of each list handed over, whose number `handedOver` gives (nil for the lists held
    /// there: the last of each group, one the packing could not make whole, the Click-to-Load
    /// lists); the build's report is that of ``buildLettingGoOfTrackerRules()``, and so are the
    /// lists, once each is put in its place. With ``Settings/recordsRuleSources`` (the sources are
    /// made from all the lists at the end) nothing is handed over.
    ///
    /// A list is handed over before the build knows that it will not be refused
    /// (``RuleListBuild/refusal``): a caller that writes each list keeps what it wrote apart
    /// until the build returns. The lists are not checked (`RuleList.validateTriggers()`).
    public mutating func buildLettingGoOfTrackerRules(
        handingOver handOver: (_ number: Int, _ list: RuleList) -> Void
    ) -> (build: RuleListBuild, handedOver: [Int?]) {
        withoutActuallyEscaping(handOver) { handOver in
            buildParts(checkingTriggers: false, lettingGoOfRules: true, handingOver: handOver)
        }
    }

    /// The main lists, then each Click-to-Load action's; with `handOver`, the main lists handed
    /// over as they are packed (``buildLettingGoOfTrackerRules(handingOver:)``).
    private mutating func buildParts(
        checkingTriggers: Bool, lettingGoOfRules: Bool, handingOver handOver: ((Int, RuleList) -> Void)? = nil
    ) -> (build: RuleListBuild, handedOver: [Int?]) {
        let actions = trackerData.clickToLoadActions
        guard !actions.isEmpty else {
            guard lettingGoOfRules else {
                let build = buildPart(checkingTriggers: checkingTriggers)
                return (build, build.ruleLists.map { _ in nil })
            }
            let made = build(leavingOut: [], lettingGoOfRules: true, handingOver: handOver)
            return (made.build, made.handedOver)
        }
        // Each action's view of the blocklist is taken before the main lists, which may let go
        // of the rules it is made from.
        let views = lettingGoOfRules ? actions.map { trackerData.clickToLoadView(for: $0) } : []
        // The main lists' trackers without their Click-to-Load rules, each rule changed where its
        // section is made: a changed copy of the blocklist would hold all its trackers twice.
        var build: RuleListBuild
        var handedOver: [Int?]
        if lettingGoOfRules {
            removesClickToLoadRules = true
            (build, _, handedOver) = self.build(leavingOut: [], lettingGoOfRules: true, handingOver: handOver)
            removesClickToLoadRules = false
        } else {
            var main = part(trackerData, action: nil)
            main.removesClickToLoadRules = true
            build = main.buildPart(checkingTriggers: checkingTriggers)
            handedOver = build.ruleLists.map { _ in nil }
        }
        guard build.refusal == nil else { return (build, handedOver) }
        let supported = configuration?.supportedClickToLoadRuleActions
        for (index, action) in actions.enumerated() {
            guard supported?.contains(action) ?? true else {
                build.report.skippedRules.append(.init(
                    path: JSONPath.root.appending(key: "features").appending(key: PrivacyConfiguration.FeatureName.clickToLoad).description,
                    reason: "no enabled entity lists the rule action \"\(action.excerpt())\": its rules never block"))
                continue
            }
            let view = lettingGoOfRules ? views[index] : trackerData.clickToLoadView(for: action)
            let group = part(view, action: action).buildPart(checkingTriggers: checkingTriggers)
            if let refusal = group.refusal { return (RuleListBuild(refusal: refusal, report: build.report), []) }
            build.ruleLists += group.ruleLists
            handedOver += group.ruleLists.map { _ in nil }
            build.sources += group.sources
            build.clickToLoadActions += group.ruleLists.map { _ in action }
            build.report.skippedRules = Self.unique(build.report.skippedRules + group.report.skippedRules)
            build.report.approximations = Self.unique(build.report.approximations + group.report.approximations)
            build.report.listSizes += group.report.listSizes
        }
        return (build, handedOver)
    }

    /// This builder on another view of its blocklist (`data`: other trackers and CNAMEs, the
    /// same `domains`, so the same sites of each entity, which the copy keeps instead of
    /// computing them again), making the list of a Click-to-Load action or (nil) the main lists.
    private func part(_ data: TrackerData, action: String?) -> RuleListBuilder {
        var builder = self
        builder.trackerData = data
        builder.clickToLoadAction = action
        return builder
    }

    /// The lists of one part: the main lists or one Click-to-Load action's list.
    private func buildPart(checkingTriggers: Bool) -> RuleListBuild {
        guard checkingTriggers else { return build(leavingOut: []).0 }
        return Self.leavingOutRefusedInputs(target: settings.target, ruleKind: "rule") { build(leavingOut: $0) }
    }

    /// The build of `build` that leaves out, one by one, each input whose rules `target` would
    /// refuse (``ContentRuleList/RuleList/validateTriggers(for:)``), with a note naming each by
    /// its JSON path: "WebKit would refuse a `ruleKind` made from it".
    static func leavingOutRefusedInputs(
        target: WebKitTarget, ruleKind: String, _ build: (Set<Origin>) -> (RuleListBuild, [[Sections.Span]])
    ) -> RuleListBuild {
        var leftOut: Set<Origin> = []
        var notes: [BuildReport.Note] = []
        while true {
            var (made, origins) = build(leftOut)
            guard let (origin, error) = firstRefusedRule(made.ruleLists, origins: origins, target: target),
                leftOut.insert(origin).inserted
            else {
                made.report.skippedRules += notes
                return made
            }
            notes.append(.init(path: origin.path, reason: "WebKit would refuse a \(ruleKind) made from it (\(error)); left out"))
        }
    }

    /// The input of the first rule that ``ContentRuleList/RuleList/validateTriggers()`` refuses,
    /// with the error; nil when every list is valid.
    private static func firstRefusedRule(
        _ lists: [RuleList], origins: [[Sections.Span]], target: WebKitTarget
    ) -> (Origin, RuleListError)? {
        for (list, spans) in zip(lists, origins) {
            do throws(RuleListError) {
                try list.validateTriggers(for: target)
            } catch {
                guard let index = error.ruleIndex, let span = spans.first(where: { index < $0.end }) else { return nil }
                return (span.origin, error)
            }
        }
        return nil
    }

    /// ``build()`` without the rules of `leftOut`, with the origin of every rule of every list.
    private func build(leavingOut leftOut: Set<Origin>) -> (RuleListBuild, [[Sections.Span]]) {
        var builder = self
        let made = builder.build(leavingOut: leftOut, lettingGoOfRules: false)
        return (made.build, made.origins)
    }

    /// ``build(leavingOut:)``, letting go of each tracker's rules once its section is made with
    /// `lettingGoOfRules` (``buildLettingGoOfTrackerRules()``), and with `handOver` handing over
    /// each main list as it is packed (``buildLettingGoOfTrackerRules(handingOver:)``).
    private mutating func build(
        leavingOut leftOut: Set<Origin>, lettingGoOfRules: Bool, handingOver handOver: ((Int, RuleList) -> Void)? = nil
    ) -> (build: RuleListBuild, origins: [[Sections.Span]], handedOver: [Int?]) {
        var report = BuildReport()
        var (tail, tailOrigins) = configurationRules(report: &report)
        for index in tail.indices.reversed() where leftOut.contains(tailOrigins[index]) {
            tail.remove(at: index)
            tailOrigins.remove(at: index)
        }
        let tailByteCount = Self.approximateByteCount(of: tail)
        // The tail is lowered first, since the sections are packed into lists as they end, beside
        // the tail as it will end each list; what that approximates is said after the sections.
        var tailReport = BuildReport()
        settings.target.lower(&tail, origins: &tailOrigins, report: &tailReport)
        let limits = ListLimits(
            maximum: settings.maximumRulesPerList, byteBudget: settings.byteBudget,
            kind: clickToLoadAction.map { "Click-to-Load \"\($0)\"" } ?? "main")
        var groups = trackerGroups(
            leavingOut: leftOut, tailByteCount: tailByteCount, limits: limits, tail: tail, lettingGoOfRules: lettingGoOfRules,
            handingOver: handOver, report: &report)
        for index in groups.indices { settings.target.lower(&groups[index].sections, report: &report) }
        report.approximations += tailReport.approximations
        report.trackerCount = trackerData.trackers.count
        report.inputWarnings = trackerData.warnings + (configuration?.warnings ?? [])
            + (configuration?.protectionWarnings() ?? [])
        report.approximations += nestedSiteNotes()
        // A CNAME copy of a tracker meets the same inputs again: report each once.
        report.skippedRules = Self.unique(report.skippedRules)
        report.approximations = Self.unique(report.approximations)
        let packed: (lists: [RuleList], origins: [[Sections.Span]], parts: [[RuleSource.Part?]], handedOver: [Int?])
        do throws(RuleListBuildError) {
            packed = try Self.split(&groups, tail: tail, tailOrigins: tailOrigins, limits: limits, target: settings.target, report: &report)
        } catch {
            return (RuleListBuild(refusal: error, report: report), [], [])
        }
        var made = RuleListBuild(
            ruleLists: packed.lists, report: report, clickToLoadActions: packed.lists.map { _ in clickToLoadAction })
        if settings.recordsRuleSources {
            made.sources = Self.sources(of: packed.lists, spans: packed.origins, parts: packed.parts)
        }
        return (made, packed.origins, packed.handedOver)
    }

    // MARK: Trackers

    /// The sections of the trackers and of the CNAMEs cloaking them, without those of `leftOut`:
    /// those of the main lists, then those of each entity with lists of its own
    /// (``entitiesWithOwnLists(tailByteCount:)``), ended by its one first-party exception. Each
    /// group's sections are packed as they end into lists of `limits` that end with `tail`.
    /// `lettingGoOfRules`: each tracker's rules go once its section is made, unless a CNAME's
    /// section reads them again. `handOver`: each list is handed over once its last section is
    /// packed (``Sections/handOverClosedLists(numbering:_:)``).
    private mutating func trackerGroups(
        leavingOut leftOut: Set<Origin>, tailByteCount: Int, limits: ListLimits, tail: [ContentRule], lettingGoOfRules: Bool,
        handingOver handOver: ((Int, RuleList) -> Void)?, report: inout BuildReport
    ) -> [ListGroup] {
        guard isFeatureOn(PrivacyConfiguration.FeatureName.contentBlocking) else { return [ListGroup(isMain: true)] }
        let separated = entitiesWithOwnLists(tailByteCount: tailByteCount)
        var groups = SectionGroups(separated: separated, leftOut: leftOut, recordsParts: settings.recordsRuleSources)
        var counter = RuleByteCounter()
        let tailBytes = counter.byteCount(of: tail)
        // Where the target takes the host-end layout, every list ends with its fix-up too,
        // before the configuration's rules, until it is laid out (``HostEndLayout``): the
        // budgets count it.
        let fixUp = HostEndLayout.isUsed(for: settings.target) ? [HostEndLayout.passwordFixUp] : []
        let fixUpBytes = fixUp.isEmpty ? 0 : counter.byteCount(of: fixUp)
        groups.main.packing = .init(
            limits: limits, endingCount: fixUp.count + tail.count, endingBytes: fixUpBytes + tailBytes, target: settings.target)
        if handOver != nil { groups.main.packing?.ending = fixUp + tail }
        for entity in separated {
            guard let exception = firstPartyException(for: entity) else { continue }
            groups.packings[entity] = .init(
                limits: limits, endingCount: 1 + fixUp.count + tail.count,
                endingBytes: counter.byteCount(of: [exception]) + fixUpBytes + tailBytes, target: settings.target)
            if handOver != nil { groups.packings[entity]?.ending = [exception] + fixUp + tail }
        }
        var cache = BuildCache()
        for (cloaked, target) in trackerData.cnames where trackerData.tracker(forHost: cloaked) == nil {
            if let tracker = trackerData.tracker(forHost: target) { cache.cloakedTrackers.insert(tracker.domain) }
        }
        // Numbered in the order handed over.
        var number = 0
        appendTrackerSections(
            to: &groups, lettingGoOfRules: lettingGoOfRules, report: &report, cache: &cache, handingOver: handOver, numbering: &number)
        appendCloakedSections(to: &groups, report: &report, cache: &cache, handingOver: handOver, numbering: &number)
        var listGroups = groups.listGroups { firstPartyException(for: $0) }
        for index in listGroups.indices where !fixUp.isEmpty {
            listGroups[index].trailer += fixUp
            listGroups[index].trailerOrigins.append(HostEndLayout.fixUpOrigin)
        }
        return listGroups
    }

    private mutating func appendTrackerSections(
        to groups: inout SectionGroups, lettingGoOfRules: Bool, report: inout BuildReport, cache: inout BuildCache,
        handingOver handOver: ((Int, RuleList) -> Void)?, numbering number: inout Int
    ) {
        let order = trackerData.sectionOrder()
        // Handed over, the lists' sections become one each: they stay few.
        if handOver == nil { groups.main.ends.reserveCapacity(order.count) }
        // The closure below captures these alone: through `self` it copied the whole builder
        // into its context for every tracker.
        let settings = settings
        for (key, isEnclosed) in order {
            guard let tracker = trackerData.trackers[key] else { continue }
            guard let domain = SiteDomain.normalized(key) else {
                report.skippedRules.append(.init(path: #"trackers["\#(key)"]"#, reason: "invalid tracker domain left out"))
                continue
            }
            let owner = tracker.ownerName
            let section = section(
                for: tracker, key: key, scope: .tracker(domain: domain), inOwnLists: groups.group(ofOwner: owner) != nil, cache: &cache)
            groups.appendTrackerSection(
                key: key, domain: domain, owner: owner, hasEnclosing: domain == key ? isEnclosed : trackerData.hasEnclosingTracker(domain),
                trackers: trackerData.trackers
            ) { rules, parts in
                section.build(into: &rules, parts: &parts, with: settings, report: &report, regexes: &cache.regexes)
            }
            // The sections after this one read its presence and owner (enclosed trackers), not its rules.
            if lettingGoOfRules, !cache.cloakedTrackers.contains(tracker.domain) { trackerData.trackers[key]?.rules = [] }
            if let handOver { groups.handOverClosedLists(numbering: &number, handOver) }
        }
    }

    private func appendCloakedSections(
        to groups: inout SectionGroups, report: inout BuildReport, cache: inout BuildCache,
        handingOver handOver: ((Int, RuleList) -> Void)?, numbering number: inout Int
    ) {
        for cloaked in trackerData.cnames.keys.sorted() {
            guard let target = trackerData.cnames[cloaked] else { continue }
            // A direct tracker match wins over the CNAME.
            guard trackerData.tracker(forHost: cloaked) == nil,
                  let tracker = trackerData.tracker(forHost: target)
            else { continue }
            guard let host = SiteDomain.normalized(cloaked), let targetHost = SiteDomain.normalized(target) else {
                report.skippedRules.append(.init(path: #"cnames["\#(cloaked)"]"#, reason: "invalid host name left out"))
                continue
            }
            let owner = tracker.ownerName
            let scope = HostScope.cloaked(host: host, target: targetHost)
            let section = section(for: tracker, key: tracker.domain, scope: scope, inOwnLists: groups.group(ofOwner: owner) != nil, cache: &cache)
            groups.appendCloakedSection(cloaked, owner: owner) { rules, parts in
                section.build(into: &rules, parts: &parts, with: settings, report: &report, regexes: &cache.regexes)
            }
            if let handOver { groups.handOverClosedLists(numbering: &number, handOver) }
        }
    }

    /// The section of `tracker` on `scope`. `inOwnLists`: the owner's lists end with its
    /// ``firstPartyException(for:)``, so the section names only what that leaves out.
    private func section(
        for tracker: Tracker, key: String, scope: HostScope, inOwnLists: Bool, cache: inout BuildCache
    ) -> TrackerSection {
        let owner = tracker.ownerName ?? ""
        let owned = sitesByEntity[owner] ?? []
        let condition: Condition?
        if inOwnLists {
            condition = ownSiteCondition(trackerSite: trackerSite(of: scope), owned: owned)
        } else if owned.isEmpty {
            // An owner without sites has no first-party pages but, where WebKit decides third
            // party by origin, the tracker's own site.
            if let site = trackerSite(of: scope), settings.namesAsFirstParty(trackerSite: site, publicSuffixList: publicSuffixList) {
                condition = settings.siteCondition(patterns: [settings.sitePattern(for: site)])
            } else {
                condition = nil
            }
        } else if case .tracker = scope.kind {
            // Tracker sites are nearly all different: computed directly, a cache would only add
            // two hashes per tracker.
            condition = firstPartyCondition(owner: owner, owned: owned, trackerSite: trackerSite(of: scope), cache: &cache)
        } else {
            let firstPartyKey = FirstPartyKey(entity: owner, trackerSite: trackerSite(of: scope))
            if let cached = cache.conditions[firstPartyKey] {
                condition = cached
            } else {
                condition = firstPartyCondition(owner: owner, owned: owned, trackerSite: firstPartyKey.trackerSite, cache: &cache)
                cache.conditions[firstPartyKey] = condition
            }
        }
        return TrackerSection(
            scope: scope,
            blocksByDefault: tracker.defaultAction == .block,
            rules: removesClickToLoadRules ? tracker.rulesWithoutClickToLoad : tracker.rules,
            trackerKey: key,
            firstPartyCondition: condition,
            keepsRegexes: cache.cloakedTrackers.contains(tracker.domain),
            recordsParts: settings.recordsRuleSources
        )
    }

    /// The tracker's own site where the owner's lists of its own end with its exception, which
    /// names only the owner's sites: named when WebKit may find that site third party
    /// (``Settings/namesAsFirstParty(trackerSite:publicSuffixList:)``) and no owner site holds it.
    private func ownSiteCondition(trackerSite: String?, owned: [FirstPartySite]) -> Condition? {
        guard let trackerSite, settings.namesAsFirstParty(trackerSite: trackerSite, publicSuffixList: publicSuffixList),
              !owned.contains(where: { DomainName.host(trackerSite, isWithin: $0.domain) })
        else { return nil }
        return settings.siteCondition(patterns: [settings.sitePattern(for: trackerSite)])
    }

    /// The condition for pages first party to a tracker of `owner` on `trackerSite`; nil when
    /// there are none.
    private func firstPartyCondition(
        owner: String, owned: [FirstPartySite], trackerSite: String?, cache: inout BuildCache
    ) -> Condition? {
        let patterns = firstPartyPatterns(owned, trackerSite: trackerSite)
        if patterns.isEmpty { return nil }
        guard patterns.count == owned.count else { return settings.siteCondition(patterns: patterns) }
        // All the owner's sites: the same condition as its other trackers', whose one array the
        // encoder then writes once and copies.
        if let shared = cache.ownerConditions[owner] { return shared }
        let condition = settings.siteCondition(patterns: patterns)
        cache.ownerConditions[owner] = condition
        return condition
    }

    /// What one build computes once and reuses: a CNAME copy meets its tracker's rules again.
    struct BuildCache {
        var conditions: [FirstPartyKey: Condition?] = [:]
        /// The condition for all sites of an owner, by owner.
        var ownerConditions: [String: Condition] = [:]
        /// The domains of the trackers that a CNAME cloaks, whose rules their CNAME's section meets again.
        var cloakedTrackers: Set<String> = []
        /// Rule regexes, parsed and expanded into WebKit's shapes, of the trackers of ``cloakedTrackers``.
        var regexes: [String: Result<[[TrackerRuleRegex.Node]], TrackerRuleRegex.ParseError>] = [:]
    }

    /// First-party conditions depend only on the owner and the tracker's own site.
    struct FirstPartyKey: Hashable {
        var entity: String
        var trackerSite: String?
    }

    /// The registrable domain of a tracker scope; nil for a cloaked host, whose loads are blocked
    /// even when they are same-site with the page.
    private func trackerSite(of scope: HostScope) -> String? {
        switch scope.kind {
        case .tracker(let domain): publicSuffixList.registrableDomain(of: domain) ?? domain
        case .cloaked: nil
        }
    }

    /// The condition patterns of the sites whose pages own the tracker, as the resolver finds a
    /// page's owner: the domains that `domains` maps to the tracker's owner. Those WebKit already
    /// sees as the same site as the tracker are left out (`load-type: third-party` covers them),
    /// unless that WebKit may not (``Settings/namesAsFirstParty(trackerSite:publicSuffixList:)``):
    /// then the tracker's own site is named too.
    private func firstPartyPatterns(_ owned: [FirstPartySite], trackerSite: String?) -> [String] {
        if let trackerSite, settings.namesAsFirstParty(trackerSite: trackerSite, publicSuffixList: publicSuffixList) {
            var patterns = owned.map(\.pattern)
            if !owned.contains(where: { DomainName.host(trackerSite, isWithin: $0.domain) }) {
                patterns.append(settings.sitePattern(for: trackerSite))
            }
            return patterns
        }
        // One pass straight to the patterns: filtering the sites first copied each kept site,
        // for every tracker of owners with hundreds of sites.
        var patterns: [String] = []
        patterns.reserveCapacity(owned.count)
        for site in owned where trackerSite.map({ !DomainName.host(site.domain, isWithin: $0) }) ?? true {
            patterns.append(site.pattern)
        }
        return patterns
    }

    /// Domains listed for one entity inside a domain listed for another: a page there belongs to
    /// the inner entity, but an `if-domain`-style condition on the outer domain covers it too.
    private func nestedSiteNotes() -> [BuildReport.Note] {
        var notes: [BuildReport.Note] = []
        // By index, each entity compared in place: iterating the pairs retained every entity
        // name, most of them long enough to be on the heap, a cache miss each.
        let domains = trackerData.domains
        for index in domains.indices {
            let domain = domains.keys[index]
            let parent = DomainName.firstParentDomain(of: domain) { parent in
                domains.index(forKey: parent).map { domains.values[$0] != domains.values[index] } ?? false
            }
            if let parent, let outer = domains[parent] {
                let entity = domains.values[index]
                notes.append(.init(
                    path: #"domains["\#(domain)"]"#,
                    reason: "pages of \(domain) (\(entity)) count as first party to trackers of \(outer), like pages of \(parent)"))
            }
        }
        return notes.sorted { $0.path < $1.path }
    }

    private static func unique(_ notes: [BuildReport.Note]) -> [BuildReport.Note] {
        var seen: Set<BuildReport.Note> = []
        return notes.filter { seen.insert($0).inserted }
    }
}
