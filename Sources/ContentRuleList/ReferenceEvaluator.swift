public import TrackerlessCore

/// Evaluates rule lists on loads exactly as WebKit's content-extension backend does.
///
/// It is the reference that faster engines are checked against: simple, matching rule by rule
/// (with a literal prefilter that only skips rules that cannot match), and faithful to WebKit's
/// ordering, deduplication and quirks.
///
/// ```swift
/// let evaluator = try ReferenceEvaluator(ruleList: try RuleList(parsing: json))
/// let result = evaluator.actions(for: Request(url: "https://t.example/p.gif",
///                                             topURL: "https://news.example/", resourceType: .image))
/// if result.isBlocked { … }
/// ```
public struct ReferenceEvaluator: Sendable {
    private let lists: [CompiledRuleList]
    private let publicSuffixList: PublicSuffixList
    /// The WebKit whose evaluation this is: how it decides third party and matches `if-domain`.
    public let target: WebKitTarget

    /// Prepares several lists, each evaluated independently (parsing every pattern once).
    ///
    /// Throws "Invalid or unsupported regular expression." for a pattern outside WebKit's subset.
    ///
    /// `target` is the WebKit whose evaluation to reproduce where WebKits differ: third party by
    /// origin or by registrable domain, `if-domain` by host or as a top-URL regex. Give the lists
    /// as that WebKit reads them (``RuleList/init(parsing:for:warnings:)`` leaves out the keys it
    /// ignores).
    public init(
        ruleLists: [RuleList], publicSuffixList: PublicSuffixList = .bundled, target: WebKitTarget = .newest
    ) throws(RuleListError) {
        try self.init(ruleLists: ruleLists, publicSuffixList: publicSuffixList, usesLiteralPrefilter: true, target: target)
    }

    /// `usesLiteralPrefilter: false` checks every rule on every load: slow, for testing.
    init(
        ruleLists: [RuleList], publicSuffixList: PublicSuffixList, usesLiteralPrefilter: Bool, target: WebKitTarget = .newest
    ) throws(RuleListError) {
        var lists: [CompiledRuleList] = []
        for (index, list) in ruleLists.enumerated() {
            do {
                lists.append(try CompiledRuleList(list, usesLiteralPrefilter: usesLiteralPrefilter, target: target))
            } catch {
                var error = error
                if ruleLists.count > 1 { error.detail = "rule list \(index): " + (error.detail ?? "") }
                throw error
            }
        }
        self.lists = lists
        self.publicSuffixList = publicSuffixList
        self.target = target
    }

    /// Prepares one list.
    public init(
        ruleList: RuleList, publicSuffixList: PublicSuffixList = .bundled, target: WebKitTarget = .newest
    ) throws(RuleListError) {
        try self.init(ruleLists: [ruleList], publicSuffixList: publicSuffixList, target: target)
    }

    /// What WebKit applies to the load, each action with the index of the rule that put it there
    /// (``AppliedActions/ListActions/ruleIndices``).
    public func actions(for request: Request) -> AppliedActions {
        guard let load = Load(request, publicSuffixList: publicSuffixList, target: target) else {
            return AppliedActions(
                lists: lists.map { _ in .init(actions: [], sawIgnorePreviousRules: false, globalStyleSheetSelectors: []) },
                isChecked: false, upgradesToHTTPS: false)
        }
        let results = lists.map { evaluate($0, load) }
        let upgrades =
            load.isUpgradable && results.contains { $0.actions.contains(.makeHTTPS) }
        return AppliedActions(lists: results, isChecked: true, upgradesToHTTPS: upgrades)
    }

    private func evaluate(_ list: CompiledRuleList, _ load: Load) -> AppliedActions.ListActions {
        // Location → the first rule that matched there, the rule an action is reported with.
        var matched: [Int: Int] = [:]
        func record(_ location: Int, rule: Int) {
            if let known = matched[location], known <= rule { return }
            matched[location] = rule
        }
        for (location, rule) in zip(list.universalLocations, list.universalRules) { record(location, rule: rule) }
        func check(_ index: Int) {
            let rule = list.rules[index]
            guard rule.flags.matches(load: load.flags) else { return }
            guard rule.urlFilter.matchesEverything || rule.urlFilter.matches(load.url) else { return }
            guard rule.conditionHolds(topURL: load.topURL, frameURL: load.frameURL) else { return }
            record(list.locations[index], rule: index)
        }
        for index in list.alwaysChecked { check(index) }
        if !list.rulesByGram.isEmpty {
            var checked = Set<Int>()
            let bytes = load.lowercasedURL
            if bytes.count >= 4 {
                var gram = LiteralPrefilter.pack(0, bytes[0], bytes[1], bytes[2])
                for position in 3..<bytes.count {
                    gram = gram << 8 | UInt32(bytes[position])
                    guard let candidates = list.rulesByGram[gram] else { continue }
                    for index in candidates where checked.insert(index).inserted { check(index) }
                }
            }
        }

        // WebKit: sort by location, cut at the first ignore-following-rules, then drop everything
        // through the last ignore-previous-rules.
        var actions: [Action] = []
        var ruleIndices: [Int] = []
        for (location, rule) in matched.sorted(by: { $0.key < $1.key }) {
            let action = list.actionsByLocation[location]
            if action == .ignoreFollowingRules { break }
            actions.append(action)
            ruleIndices.append(rule)
        }
        var sawIgnorePreviousRules = false
        if let last = actions.lastIndex(of: .ignorePreviousRules) {
            sawIgnorePreviousRules = true
            actions.removeSubrange(...last)
            ruleIndices.removeSubrange(...last)
        }
        return AppliedActions.ListActions(
            actions: actions, sawIgnorePreviousRules: sawIgnorePreviousRules,
            globalStyleSheetSelectors: sawIgnorePreviousRules ? [] : list.globalStyleSheetSelectors,
            ruleIndices: ruleIndices)
    }
}

/// The inputs WebKit derives from a request before matching.
private struct Load {
    /// The canonical request URL without its fragment.
    var url: String
    var lowercasedURL: [UInt8]
    /// The canonical main document URL, fragment kept.
    var topURL: String
    /// The canonical URL of the document in the issuing frame, fragment kept.
    var frameURL: String
    var flags: ResourceFlags
    /// `http:` or `ws:` on the default port: what make-https upgrades.
    var isUpgradable: Bool

    init?(_ request: Request, publicSuffixList: PublicSuffixList, target: WebKitTarget) {
        guard let url = CanonicalURL(request.url), url.scheme != "data" else { return nil }
        self.url = url.stringWithoutFragment
        lowercasedURL = self.url.utf8.map(ASCII.lowercased)
        isUpgradable = (url.scheme == "http" || url.scheme == "ws") && url.port == nil

        let isMainFrameNavigation = request.isMainFrameNavigation

        let top = isMainFrameNavigation ? url : CanonicalURL(request.topURL)
        topURL = top?.string ?? request.topURL
        // WebKit's frame URL is the URL of the document in the issuing frame. A navigation is
        // issued by the frame it navigates, so it sees the document being left: a new iframe's
        // about:blank, or none in a new view (WebKit then takes the request URL).
        if let frame = request.frameURL {
            frameURL = CanonicalURL(frame)?.string ?? frame
        } else if request.isFrameNavigation {
            frameURL = Request.initialFrameDocumentURL
        } else {
            // A new view's first navigation: the URL itself, or none before WebKitGTK 2.50.
            frameURL = isMainFrameNavigation ? (target.matchesNewViewAgainstItsURL ? url.string : "") : topURL
        }

        let isThirdParty: Bool
        switch target.thirdParty {
        case .registrableDomain:
            isThirdParty = Self.isThirdParty(host: url.host, topHost: top?.host ?? "", publicSuffixList: publicSuffixList)
        case .origin:
            isThirdParty = !Self.isSameOrigin(url, top)
        case .registrableDomainOfListedSuffixes:
            let topHost = top?.host ?? ""
            isThirdParty = publicSuffixList.listsTopLevelDomain(of: topHost)
                ? Self.isThirdParty(host: url.host, topHost: topHost, publicSuffixList: publicSuffixList)
                : Self.isThirdParty(host: url.host, site: topHost)
        }
        flags = request.loadFlags(isThirdParty: isThirdParty)
    }

    /// WebKit's `SecurityOrigin(mainDocumentURL).canAccess(SecurityOrigin(resourceURL))` for
    /// hierarchical URLs: the same scheme, host and port (a default port is the scheme's).
    static func isSameOrigin(_ url: CanonicalURL, _ top: CanonicalURL?) -> Bool {
        guard let top, !top.host.isEmpty else { return false }
        return url.scheme == top.scheme && url.host == top.host && url.port == top.port
    }

    /// WebKit's `RegistrableDomain(mainDocumentURL).matches(resourceURL)`, negated: the request
    /// host must be the top host's registrable domain (or the top host itself when it has none)
    /// or a subdomain of it.
    static func isThirdParty(host: String, topHost: String, publicSuffixList: PublicSuffixList) -> Bool {
        guard !topHost.isEmpty else { return true }
        return isThirdParty(host: host, site: publicSuffixList.registrableDomain(of: topHost) ?? topHost)
    }

    /// Whether `host` is neither `site` nor a subdomain of it, compared as WebKit's
    /// `RegistrableDomain::matches` does: `host.endsWith(site)`, case-sensitive, then a dot before
    /// it. The host of another scheme keeps its capitals (`myapp://CDN.SITE.EXAMPLE/`): third party
    /// to `site.example`, as the rule engine decides too.
    static func isThirdParty(host: String, site: String) -> Bool {
        let host = host.utf8, site = site.utf8
        guard !site.isEmpty, host.count >= site.count, host.suffix(site.count).elementsEqual(site) else { return true }
        return host.count > site.count && host[host.index(host.endIndex, offsetBy: -site.count - 1)] != UInt8(ascii: ".")
    }
}
