public import TrackerlessCore

/// The privacy configuration's tracker allowlist (`trackerAllowlist.settings.allowlistedTrackers`):
/// tracker requests that must load on some or all sites to avoid breakage.
///
/// Each rule is plain text, not a regular expression: `host/path-prefix`. A request matches when
/// its host is the rule's host or a subdomain of it, and its path (with the query) starts with
/// the rule's path, ignoring case, the port, and anything after the path prefix. This is what
/// DuckDuckGo's WebKit rules for the allowlist express (`^[^:]+://+([^:/]+\.)?host(:[0-9]+)?/path.*`).
/// A rule applies on every site when its `domains` contain `<all>`, otherwise on the listed
/// sites and their subdomains. A request is allowlisted when any rule matches both.
public struct TrackerAllowlist: Sendable, Hashable {
    /// The rules for one tracker domain.
    public struct Entry: Sendable, Hashable {
        /// The tracker domain the entry is listed under.
        public var trackerDomain: String
        /// The entry's rules in order.
        public var rules: [Rule]

        /// Creates an entry.
        public init(trackerDomain: String, rules: [Rule]) {
            self.trackerDomain = trackerDomain
            self.rules = rules
        }
    }

    /// One allowlisted request pattern.
    public struct Rule: Sendable, Hashable {
        /// The pattern, `host/path-prefix`, for example `connect.facebook.net/en_US/sdk.js`.
        public var rule: String
        /// The sites it applies on, or `<all>`.
        public var domains: [String]
        /// Why the request is allowlisted.
        public var reason: String?

        /// Creates a rule.
        public init(rule: String, domains: [String], reason: String? = nil) {
            self.rule = rule
            self.domains = domains
            self.reason = reason
        }

        /// Whether the rule applies on every site (`domains` contains `<all>`).
        public var appliesToAllSites: Bool { domains.contains("<all>") }

        /// The host part of ``rule``, lowercased, without a port.
        public var host: String {
            let hostAndPort = rule.prefix(while: { $0 != "/" })
            return DomainName.normalized(String(hostAndPort.prefix(while: { $0 != ":" })))
        }

        /// The path part of ``rule`` from its first `/`, or "" when it has none.
        public var pathPrefix: String {
            guard let slash = rule.firstIndex(of: "/") else { return "" }
            return String(rule[slash...])
        }

        /// Whether the rule matches a request to `url` made by a page of `siteHost`.
        public func matches(requestURL url: CanonicalURL, siteHost: String) -> Bool {
            matchesRequest(url) && appliesOnSite(siteHost)
        }

        /// Whether the request URL matches the pattern, whatever the site.
        public func matchesRequest(_ url: CanonicalURL) -> Bool {
            guard DomainName.host(url.host, isWithin: host) else { return false }
            let prefix = pathPrefix
            if prefix.isEmpty { return true }
            var pathAndQuery = url.path
            if let query = url.query { pathAndQuery += "?" + query }
            return pathAndQuery.lowercased().hasPrefix(prefix.lowercased())
        }

        /// Whether the rule applies on pages of `siteHost`.
        public func appliesOnSite(_ siteHost: String) -> Bool {
            appliesToAllSites || domains.contains { DomainName.host(siteHost, isWithin: $0) }
        }
    }

    /// The entries in document order.
    public var entries: [Entry]
    /// Entries and rules that were dropped while parsing, with their JSON paths.
    public var warnings: [InputWarning]

    /// Creates an allowlist.
    public init(entries: [Entry] = [], warnings: [InputWarning] = []) {
        self.entries = entries
        self.warnings = warnings
    }

    /// Reads an `allowlistedTrackers` object on its own, as in the reference tests'
    /// tracker_allowlist_reference.json. Invalid entries are dropped with a warning.
    public init(parsing bytes: [UInt8], file: String? = nil) throws(TrackerDataError) {
        self = try TrackerDataError.reading(bytes, file: file) { (reader) throws(JSONReadError) in
            try TrackerAllowlist(allowlistedTrackers: &reader, file: file, at: .root)
        }
    }

    /// The first rule that matches a request to `url` from a page of `siteHost`.
    public func matchingRule(requestURL url: CanonicalURL, siteHost: String) -> Rule? {
        matchingPosition(requestURL: url, siteHost: siteHost).map { entries[$0.entry].rules[$0.rule] }
    }

    /// Where the first rule that matches a request to `url` from a page of `siteHost` is: the
    /// index of its entry in ``entries`` and its own index in that entry's rules.
    public func matchingPosition(requestURL url: CanonicalURL, siteHost: String) -> (entry: Int, rule: Int)? {
        for (entryIndex, entry) in entries.enumerated() {
            if let ruleIndex = entry.rules.firstIndex(where: { $0.matches(requestURL: url, siteHost: siteHost) }) {
                return (entryIndex, ruleIndex)
            }
        }
        return nil
    }

    /// Whether a request to `url` from a page of `siteHost` is allowlisted.
    public func isAllowlisted(requestURL url: CanonicalURL, siteHost: String) -> Bool {
        matchingRule(requestURL: url, siteHost: siteHost) != nil
    }

    /// Reads the `allowlistedTrackers` value that comes next; what is not an allowlist is
    /// dropped with a warning naming its path under `path`.
    init(allowlistedTrackers reader: inout JSONReader, file: String?, at path: JSONPath) throws(JSONReadError) {
        self.init()
        func drop(_ path: JSONPath, _ message: String) {
            warnings.append(InputWarning(file: file, path: path, message: message))
        }
        guard var members = try reader.enterObjectIfPresent() else {
            drop(path, "expected an object; the allowlist is ignored")
            return
        }
        while let key = try reader.nextKey(in: &members) {
            let trackerDomain = key.string
            let entryPath = path.appending(key: trackerDomain)
            let entry = try SettingsEntryRules.read(&reader, at: entryPath) { (reader, rulePath, warnings) throws(JSONReadError) -> Rule? in
                switch try Self.rule(&reader) {
                case .success(let rule):
                    return rule
                case .failure(let problem):
                    warnings.append(InputWarning(
                        file: file, path: problem.key.map { rulePath.appending(key: $0) } ?? rulePath, message: problem.message))
                    return nil
                case .reasonIgnored(let rule, let found):
                    // DuckDuckGo's clients never read the reason; the rule stays.
                    warnings.append(InputWarning(
                        file: file, path: rulePath.appending(key: "reason"),
                        message: "expected a string, found \(found); the reason is ignored"))
                    return rule
                }
            }
            guard let (rules, ruleWarnings) = entry else {
                drop(entryPath, "expected an object with a \"rules\" array; entry dropped")
                continue
            }
            warnings += ruleWarnings
            entries.append(Entry(trackerDomain: DomainName.normalized(trackerDomain), rules: rules))
        }
    }

    /// What reading one rule gives.
    private enum RuleReading {
        case success(Rule)
        /// The rule is dropped: the message, and the member it names (nil: the rule itself).
        case failure((key: String?, message: String))
        /// The rule stays without its reason, which is of the type named.
        case reasonIgnored(Rule, String)
    }

    /// The rule that comes next, `{"rule": string, "domains": [string], "reason"?: string}`,
    /// checked in that order (the last of duplicate members counting).
    private static func rule(_ reader: inout JSONReader) throws(JSONReadError) -> RuleReading {
        guard var members = try reader.enterObjectIfPresent() else {
            return .failure((nil, "expected {\"rule\": string, \"domains\": [string]}; rule dropped"))
        }
        var pattern: String??, domains: [String?]??, reason: String?, reasonKind: JSONValueKind?
        while let key = try reader.nextKey(in: &members) {
            switch key {
            case "rule": pattern = .some(try reader.readStringIfPresent())
            case "domains": domains = .some(try Self.optionalStrings(&reader))
            case "reason":
                reasonKind = try reader.nextKind()
                reason = try reader.readStringIfPresent()
            default: try reader.skipValue()
            }
        }
        guard let pattern = pattern ?? nil, !pattern.isEmpty else {
            return .failure(("rule", "expected a non-empty string; rule dropped"))
        }
        guard let domainValues = domains ?? nil else {
            return .failure(("domains", "expected an array of strings; rule dropped"))
        }
        let strings = domainValues.compactMap { $0.map(DomainName.normalized) }
        guard strings.count == domainValues.count else {
            return .failure(("domains", "expected an array of strings; rule dropped"))
        }
        let rule = Rule(rule: pattern, domains: strings, reason: reason)
        if let reasonKind, reasonKind != .string, reasonKind != .null { return .reasonIgnored(rule, reasonKind.typeName) }
        return .success(rule)
    }

    /// The array that comes next, each element a string or nil for another value; nil for
    /// another value than an array.
    static func optionalStrings(_ reader: inout JSONReader) throws(JSONReadError) -> [String?]? {
        guard var elements = try reader.enterArrayIfPresent() else { return nil }
        var values: [String?] = []
        while try reader.nextElement(in: &elements) {
            values.append(try reader.readStringIfPresent())
        }
        return values
    }
}

extension TrackerAllowlist {
    /// The allowlist's rules by host, for the resolver, which asks for every request: the rules
    /// whose host the request is within are found by the request host's suffixes, instead of
    /// testing every rule (and working out its host and path) each time.
    final class Index: Sendable {
        struct PreparedRule: Sendable {
            let rule: Rule
            /// The rule's position: its entry's tracker domain and its index in the entry's rules.
            let trackerDomain: String
            let index: Int
            /// ``Rule/pathPrefix`` with ASCII letters lowercased; nil when it is not plain ASCII
            /// (the rule is then asked itself).
            let lowercasedPathPrefix: [UInt8]?
        }

        let rules: [PreparedRule]
        /// Indices into `rules` by the rule's lowercased host.
        let rulesByHost: HostTable<[Int]>

        /// nil when a rule's host is not ASCII; use ``TrackerAllowlist/isAllowlisted(requestURL:siteHost:)``.
        init?(_ allowlist: TrackerAllowlist) {
            var rules: [PreparedRule] = []
            var rulesByHost: [String: [Int]] = [:]
            for entry in allowlist.entries {
                for (index, rule) in entry.rules.enumerated() {
                    let host = String(decoding: rule.host.utf8.map(ASCII.lowercased), as: UTF8.self)
                    // An empty host is within nothing.
                    guard !host.isEmpty else { continue }
                    let prefix = rule.pathPrefix.utf8
                    let isPlain = prefix.allSatisfy { $0 < 0x80 && $0 != UInt8(ascii: "\r") }
                    rules.append(PreparedRule(
                        rule: rule, trackerDomain: entry.trackerDomain, index: index, lowercasedPathPrefix: isPlain ? prefix.map(ASCII.lowercased) : nil))
                    rulesByHost[host, default: []].append(rules.count - 1)
                }
            }
            guard let table = HostTable(rulesByHost) else { return nil }
            self.rules = rules
            self.rulesByHost = table
        }

        /// A rule that matches a request to `url` from a page of `siteHost`, or `.some(nil)`
        /// when none does; nil when the request host is not ASCII.
        func matchingRule(requestURL url: CanonicalURL, siteHost: String) -> PreparedRule?? {
            // The path and query, lowercased, made on first need; nil inside when not ASCII.
            var pathAndQuery: [UInt8]??
            var found: Int?
            let answer = rulesByHost.anyKey(enclosing: url.host) { indices in
                found = indices.first { index in
                    guard rules[index].rule.appliesOnSite(siteHost) else { return false }
                    guard let prefix = rules[index].lowercasedPathPrefix else { return rules[index].rule.matchesRequest(url) }
                    if prefix.isEmpty { return true }
                    if pathAndQuery == nil {
                        var text = Array(url.path.utf8)
                        if let query = url.query {
                            text.append(UInt8(ascii: "?"))
                            text.append(contentsOf: query.utf8)
                        }
                        pathAndQuery = .some(
                            text.contains { $0 >= 0x80 } ? nil : text.map(ASCII.lowercased))
                    }
                    guard let text = pathAndQuery ?? nil else { return rules[index].rule.matchesRequest(url) }
                    return text.starts(with: prefix)
                }
                return found != nil
            }
            guard answer != nil else { return nil }
            return .some(found.map { rules[$0] })
        }
    }
}
