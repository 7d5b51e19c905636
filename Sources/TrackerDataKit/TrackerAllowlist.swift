import TrackerlessCore

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
            return HostMatching.normalized(String(hostAndPort.prefix(while: { $0 != ":" })))
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
            guard HostMatching.host(url.host, isWithin: host) else { return false }
            let prefix = pathPrefix
            if prefix.isEmpty { return true }
            var pathAndQuery = url.path
            if let query = url.query { pathAndQuery += "?" + query }
            return pathAndQuery.lowercased().hasPrefix(prefix.lowercased())
        }

        /// Whether the rule applies on pages of `siteHost`.
        public func appliesOnSite(_ siteHost: String) -> Bool {
            appliesToAllSites || domains.contains { HostMatching.host(siteHost, isWithin: $0) }
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
        // A tree, as in the privacy configuration, where it is part of a feature's settings.
        self = try TrackerDataError.reading(bytes, file: file) { (reader) throws(JSONReadError) in
            TrackerAllowlist(allowlistedTrackers: try reader.readValue(), file: file, at: .root)
        }
    }

    /// The first rule that matches a request to `url` from a page of `siteHost`.
    public func matchingRule(requestURL url: CanonicalURL, siteHost: String) -> Rule? {
        for entry in entries {
            for rule in entry.rules where rule.matches(requestURL: url, siteHost: siteHost) {
                return rule
            }
        }
        return nil
    }

    /// Whether a request to `url` from a page of `siteHost` is allowlisted.
    public func isAllowlisted(requestURL url: CanonicalURL, siteHost: String) -> Bool {
        matchingRule(requestURL: url, siteHost: siteHost) != nil
    }

    init(allowlistedTrackers value: JSONValue, file: String?, at path: JSONPath) {
        self.init()
        guard case .object(let object) = value else {
            warnings.append(InputWarning(file: file, path: path, message: "expected an object; the allowlist is ignored"))
            return
        }
        for (trackerDomain, entryValue) in zip(object.keys, object.values) {
            let entryPath = path.appending(key: trackerDomain)
            guard case .object(let entryObject) = entryValue,
                case .array(let ruleValues)? = entryObject["rules"]
            else {
                warnings.append(InputWarning(
                    file: file, path: entryPath, message: "expected an object with a \"rules\" array; entry dropped"))
                continue
            }
            var rules: [Rule] = []
            for (index, ruleValue) in ruleValues.enumerated() {
                let rulePath = entryPath.appending(key: "rules").appending(index: index)
                guard case .object(let ruleObject) = ruleValue else {
                    warnings.append(InputWarning(
                        file: file, path: rulePath,
                        message: "expected {\"rule\": string, \"domains\": [string]}; rule dropped"))
                    continue
                }
                guard case .string(let pattern)? = ruleObject["rule"], !pattern.isEmpty else {
                    warnings.append(InputWarning(
                        file: file, path: rulePath.appending(key: "rule"), message: "expected a non-empty string; rule dropped"))
                    continue
                }
                guard case .array(let domainValues)? = ruleObject["domains"] else {
                    warnings.append(InputWarning(
                        file: file, path: rulePath.appending(key: "domains"), message: "expected an array of strings; rule dropped"))
                    continue
                }
                let domains = domainValues.compactMap { value -> String? in
                    if case .string(let domain) = value { return HostMatching.normalized(domain) }
                    return nil
                }
                guard domains.count == domainValues.count else {
                    warnings.append(InputWarning(
                        file: file, path: rulePath.appending(key: "domains"),
                        message: "expected an array of strings; rule dropped"))
                    continue
                }
                var reason: String?
                switch ruleObject["reason"] {
                case .string(let text)?: reason = text
                case nil, .null?: break
                case let other?:
                    // DuckDuckGo's clients never read the reason; the rule stays.
                    warnings.append(InputWarning(
                        file: file, path: rulePath.appending(key: "reason"),
                        message: "expected a string, found \(JSONNode.typeName(of: other)); the reason is ignored"))
                }
                rules.append(Rule(rule: pattern, domains: domains, reason: reason))
            }
            entries.append(Entry(trackerDomain: HostMatching.normalized(trackerDomain), rules: rules))
        }
    }
}

extension TrackerAllowlist {
    /// The allowlist's rules by host, for the resolver, which asks for every request: the rules
    /// whose host the request is within are found by the request host's suffixes, instead of
    /// testing every rule (and working out its host and path) each time.
    final class Index: Sendable {
        struct PreparedRule: Sendable {
            let rule: Rule
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
                for rule in entry.rules {
                    let host = String(decoding: rule.host.utf8.map(TrackerRuleRegex.Matcher.lowercased), as: UTF8.self)
                    // An empty host is within nothing.
                    guard !host.isEmpty else { continue }
                    let prefix = rule.pathPrefix.utf8
                    let isPlain = prefix.allSatisfy { $0 < 0x80 && $0 != UInt8(ascii: "\r") }
                    rules.append(PreparedRule(
                        rule: rule, lowercasedPathPrefix: isPlain ? prefix.map(TrackerRuleRegex.Matcher.lowercased) : nil))
                    rulesByHost[host, default: []].append(rules.count - 1)
                }
            }
            guard let table = HostTable(rulesByHost) else { return nil }
            self.rules = rules
            self.rulesByHost = table
        }

        /// ``TrackerAllowlist/isAllowlisted(requestURL:siteHost:)``; nil when the request host is
        /// not ASCII.
        func isAllowlisted(requestURL url: CanonicalURL, siteHost: String) -> Bool? {
            // The path and query, lowercased, made on first need; nil inside when not ASCII.
            var pathAndQuery: [UInt8]??
            return rulesByHost.anyKey(enclosing: url.host) { indices in
                indices.contains { index in
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
                            text.contains { $0 >= 0x80 } ? nil : text.map(TrackerRuleRegex.Matcher.lowercased))
                    }
                    guard let text = pathAndQuery ?? nil else { return rules[index].rule.matchesRequest(url) }
                    return text.starts(with: prefix)
                }
            }
        }
    }
}
