import Foundation
import TrackerDataKit
import TrackerlessCore

/// Re-checks a decision's ``BlockingDecision/DecidingEntry`` from the inputs alone, without the
/// resolver: the entry is at the position it names, it covers the request and the site (tds
/// rules through Foundation's regular expressions, not the resolver's matcher), no earlier tds
/// rule would have decided instead, and the entry by itself gives the decision's action.
struct DecidingEntryCheck {
    let trackerData: TrackerData
    let surrogates: Surrogates
    let configuration: PrivacyConfiguration?
    let userAllowlist: UserAllowlist
    let publicSuffixList = PublicSuffixList.bundled
    /// Every tds rule's expression, compiled once by Foundation (absent: it does not compile).
    let regexes: [String: NSRegularExpression]

    init(
        trackerData: TrackerData, surrogates: Surrogates = .bundled, configuration: PrivacyConfiguration? = nil,
        userAllowlist: UserAllowlist = UserAllowlist()
    ) {
        self.trackerData = trackerData
        self.surrogates = surrogates
        self.configuration = configuration
        self.userAllowlist = userAllowlist
        var regexes: [String: NSRegularExpression] = [:]
        for tracker in trackerData.trackers.values {
            for rule in tracker.rules where regexes[rule.rule] == nil {
                regexes[rule.rule] = try? NSRegularExpression(pattern: rule.rule, options: [.caseInsensitive])
            }
        }
        self.regexes = regexes
    }

    /// nil when the entry holds; otherwise what is wrong.
    func problem(with decision: BlockingDecision, request: CanonicalURL, site: CanonicalURL, type: RequestType) -> String? {
        guard let entry = decision.decidingEntry else {
            return decision.reason == .noMatch ? nil : "no deciding entry for \"\(decision.reason.rawValue)\""
        }
        if decision.reason == .noMatch { return "an entry (\(entry.kind)) for \"no match\"" }
        let siteHost = site.host.lowercased()
        let trackerAction: BlockingDecision.Action? = decision.isTracker ? .ignore : nil
        let alone: BlockingDecision.Action?
        switch entry {
        case .userAllowlist(let domain):
            guard userAllowlist.domain(covering: siteHost) == domain else { return "\(domain) is not the site's toggle" }
            alone = trackerAction
        case .unprotectedSite(let off):
            guard let configuration else { return "unprotected without a configuration" }
            let feature = configuration.features["contentBlocking"]
            switch off {
            case .featureNotEnabled(let name, let state):
                guard name == "contentBlocking", feature?.state == state, state != .enabled else { return "contentBlocking is enabled" }
            case .unprotectedTemporary(let index, let domain):
                guard configuration.unprotectedTemporary.indices.contains(index),
                    configuration.unprotectedTemporary[index].domain == domain, Self.isWithin(siteHost, domain)
                else { return "unprotectedTemporary[\(index)] is not \(domain) or does not cover \(siteHost)" }
            case .featureException(let name, let index, let domain):
                guard name == "contentBlocking", let exceptions = feature?.exceptions, exceptions.indices.contains(index),
                    exceptions[index].domain == domain, Self.isWithin(siteHost, domain)
                else { return "contentBlocking exception \(index) is not \(domain) or does not cover \(siteHost)" }
            }
            alone = trackerAction
        case .requestBlocklist(let domain, let index, let rule):
            guard let rules = configuration?.requestBlocklist.blockedRequests[domain], rules.indices.contains(index),
                rules[index] == rule
            else { return "blockedRequests[\(domain)][\(index)] is not \(rule.rule)" }
            guard publicSuffixList.registrableDomain(of: request.host) == domain, rule.matchesRequest(request),
                rule.appliesOnSite(siteHost), type != .mainFrame
            else { return "\(rule.rule) does not block this request" }
            alone = .block
        case .mainFrame:
            guard type == .mainFrame, decision.isTracker else { return "not a tracker navigation" }
            alone = .ignore
        case .sameEntity(let entity):
            guard decision.tracker?.owner?.name == entity, siteEntity(siteHost) == entity else {
                return "\(entity) does not own both the tracker and the site"
            }
            alone = .ignore
        case .sameSite(let registrableDomain):
            guard decision.isTracker, !decision.isCNAMEUncloaked,
                publicSuffixList.registrableDomain(of: request.host) == registrableDomain,
                publicSuffixList.registrableDomain(of: siteHost) == registrableDomain
            else { return "the request and the site do not share \(registrableDomain)" }
            alone = .ignore
        case .trackerAllowlist(let trackerDomain, let index, let rule):
            guard let entry = configuration?.trackerAllowlist.entries.first(where: { $0.trackerDomain == trackerDomain }),
                entry.rules.indices.contains(index), entry.rules[index] == rule
            else { return "allowlistedTrackers[\(trackerDomain)].rules[\(index)] is not \(rule.rule)" }
            guard decision.isTracker, rule.matches(requestURL: request, siteHost: siteHost) else {
                return "\(rule.rule) does not cover this request on \(siteHost)"
            }
            alone = .ignore
        case .trackerRule(let reference):
            let (trackerDomain, index, rule) = (reference.trackerDomain, reference.index, reference.rule)
            guard let tracker = trackerData.trackers[trackerDomain], decision.tracker?.domain == trackerDomain,
                tracker.rules.indices.contains(index), tracker.rules[index] == rule
            else { return "trackers[\(trackerDomain)].rules[\(index)] is not \(rule.rule)" }
            let url = matchableURL(request, host: decision.cnameTarget ?? request.host)
            guard applies(rule, to: url, siteHost: siteHost, type: type) else { return "\(rule.rule) does not match \(url)" }
            if let earlier = tracker.rules[..<index].firstIndex(where: { deciding($0, url, siteHost, type) }) {
                return "rule \(earlier) of \(trackerDomain) comes first and matches"
            }
            alone = action(of: rule, siteHost: siteHost, type: type)
        case .trackerDefault(let trackerDomain, let defaultAction):
            guard let tracker = trackerData.trackers[trackerDomain], decision.tracker?.domain == trackerDomain,
                tracker.defaultAction == defaultAction
            else { return "\(trackerDomain)'s default is not \(String(describing: defaultAction))" }
            let url = matchableURL(request, host: decision.cnameTarget ?? request.host)
            if let rule = tracker.rules.firstIndex(where: { deciding($0, url, siteHost, type) }) {
                return "rule \(rule) of \(trackerDomain) matches \(url)"
            }
            if case .block? = defaultAction { alone = .block } else { alone = .ignore }
        }
        return alone == decision.action ? nil : "\(entry.kind) alone gives \(String(describing: alone)), the decision \(String(describing: decision.action))"
    }

    static func isWithin(_ host: String, _ domain: String) -> Bool {
        let domain = domain.lowercased()
        return !domain.isEmpty && (host == domain || host.hasSuffix("." + domain))
    }

    func siteEntity(_ host: String) -> String? {
        var labels = host.split(separator: ".", omittingEmptySubsequences: false)
        while labels.count >= 2 {
            if let entity = trackerData.domains[labels.joined(separator: ".")] { return entity }
            labels.removeFirst()
        }
        return nil
    }

    func matchableURL(_ url: CanonicalURL, host: String) -> String {
        url.scheme + "://" + host + url.path + (url.query.map { "?" + $0 } ?? "")
    }

    /// Whether the rule's expression, run by Foundation case-insensitively, and its options match.
    func applies(_ rule: Tracker.Rule, to url: String, siteHost: String, type: RequestType) -> Bool {
        guard let regex = regexes[rule.rule],
            regex.firstMatch(in: url, range: NSRange(url.startIndex..., in: url)) != nil
        else { return false }
        return rule.options.map { condition($0, siteHost: siteHost, type: type) } ?? true
    }

    /// Whether an earlier rule would decide instead: it applies and is neither unsupported nor a
    /// Click-to-Load rule (which may be skipped where Click-to-Load does not block).
    func deciding(_ rule: Tracker.Rule, _ url: String, _ siteHost: String, _ type: RequestType) -> Bool {
        switch rule.action {
        case .unsupported?, .blockClickToLoad?: false
        case .block?, .ignore?, nil: applies(rule, to: url, siteHost: siteHost, type: type)
        }
    }

    func condition(_ condition: Tracker.Rule.Condition, siteHost: String, type: RequestType) -> Bool {
        if condition.isEmpty { return true }
        if let types = condition.types, !types.contains(type) { return false }
        if let domains = condition.domains, !domains.contains(where: { Self.isWithin(siteHost, $0) }) { return false }
        return true
    }

    /// What a matched rule does by itself.
    func action(of rule: Tracker.Rule, siteHost: String, type: RequestType) -> BlockingDecision.Action {
        if case .ignore? = rule.action { return .ignore }
        if let exceptions = rule.exceptions, !exceptions.isEmpty, condition(exceptions, siteHost: siteHost, type: type) {
            return .ignore
        }
        if let surrogate = rule.surrogate, surrogates.contains(surrogate) { return .redirect(surrogate: surrogate) }
        return .block
    }
}
