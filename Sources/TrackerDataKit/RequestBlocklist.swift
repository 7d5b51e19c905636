import TrackerlessCore

/// The privacy configuration's request blocklist (`requestBlocklist.settings.blockedRequests`):
/// requests blocked whatever Tracker Radar says, for example to fix a site.
///
/// Entries are keyed by the eTLD+1 of the requests they block. Rule strings are plain text with
/// `*` wildcards, not regular expressions nor adblock filters: `host[:port]/path`, with an
/// implicit wildcard at the end. A request matches when its host is the rule's host or a
/// subdomain of it, its port is the rule's port (a URL's default port counts as none), and its
/// path followed by `?query` matches the path pattern case-sensitively from the start. A rule
/// applies on every site when its `domains` contain `<all>`, otherwise on the listed sites and
/// their subdomains. The blocklist blocks first-party requests too, but never navigations
/// (`main_frame`); see ``TrackerResolver`` for what turns it off.
///
/// Parsing drops, with a warning naming the JSON path: entries not keyed by an eTLD+1, rules
/// with a property other than `rule`, `domains` and `reason`, rules without `domains`, and rules
/// whose host is not a plain host name inside the entry's domain.
public struct RequestBlocklist: Sendable, Hashable {
    /// One blocked-request pattern.
    public struct Rule: Sendable, Hashable {
        /// The pattern as written, for example `example.com/ads/*.js`.
        public let rule: String
        /// The sites it applies on, or `<all>`.
        public var domains: [String]
        /// Why the request is blocked.
        public var reason: String?
        /// The lowercase host of ``rule``.
        public let host: String
        /// The port of ``rule``, if it names one.
        public let port: Int?
        /// The path pattern of ``rule`` from its first `/` (`*` is a wildcard), or "" for any path.
        public let pathPattern: String

        /// Creates a rule, or nil when `rule` is not `host[:port][/path]` with a plain host name.
        public init?(rule: String, domains: [String], reason: String? = nil) {
            let slash = rule.firstIndex(of: "/") ?? rule.endIndex
            let hostAndPort = rule[..<slash]
            var hostPart = hostAndPort
            var port: Int?
            if let colon = hostAndPort.firstIndex(of: ":") {
                hostPart = hostAndPort[..<colon]
                let digits = hostAndPort[hostAndPort.index(after: colon)...]
                guard !digits.isEmpty, digits.allSatisfy(\.isASCIIDigitCharacter), let number = Int(digits),
                    number <= 65535
                else { return nil }
                port = number
            }
            guard Self.isPlainHostName(hostPart) else { return nil }
            self.rule = rule
            self.domains = domains
            self.reason = reason
            self.host = hostPart.lowercased()
            self.port = port
            self.pathPattern = String(rule[slash...])
        }

        /// Whether the rule applies on every site (`domains` contains `<all>`).
        public var appliesToAllSites: Bool { domains.contains("<all>") }

        /// Whether the request URL matches the pattern, whatever the site.
        public func matchesRequest(_ url: CanonicalURL) -> Bool {
            guard url.port == port, HostMatching.host(url.host, isWithin: host) else { return false }
            if pathPattern.isEmpty { return true }
            var pathAndQuery = url.path
            if let query = url.query { pathAndQuery += "?" + query }
            return Self.wildcardPrefixMatch(pattern: pathPattern, text: pathAndQuery)
        }

        /// Whether the rule applies on pages of `siteHost`.
        public func appliesOnSite(_ siteHost: String) -> Bool {
            appliesToAllSites || domains.contains { HostMatching.host(siteHost, isWithin: $0) }
        }

        /// Whether `text` starts with something `pattern` matches, `*` matching any run of
        /// characters. Leftmost matching of each literal piece is enough because the end is open.
        static func wildcardPrefixMatch(pattern: String, text: String) -> Bool {
            let pieces = pattern.utf8.split(separator: UInt8(ascii: "*"), omittingEmptySubsequences: false)
            let text = Array(text.utf8)
            var position = 0
            for (index, piece) in pieces.enumerated() {
                if index == 0 {
                    guard text.count >= piece.count, text[0..<piece.count].elementsEqual(piece) else { return false }
                    position = piece.count
                    continue
                }
                if piece.isEmpty { continue }
                guard let found = firstOccurrence(of: Array(piece), in: text, from: position) else { return false }
                position = found + piece.count
            }
            return true
        }

        private static func firstOccurrence(of needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
            guard needle.count <= haystack.count - start else { return nil }
            var index = start
            while index + needle.count <= haystack.count {
                if haystack[index..<(index + needle.count)].elementsEqual(needle) { return index }
                index += 1
            }
            return nil
        }

        private static func isPlainHostName(_ host: Substring) -> Bool {
            guard !host.isEmpty, host.first != ".", host.last != "." else { return false }
            return host.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."):
                    return true
                default:
                    return false
                }
            }
        }
    }

    /// Rules by the eTLD+1 of the requests they block, in document order within each entry.
    public var blockedRequests: [String: [Rule]]
    /// Entries and rules that were dropped while parsing, with their JSON paths.
    public var warnings: [InputWarning]

    /// Creates a blocklist.
    public init(blockedRequests: [String: [Rule]] = [:], warnings: [InputWarning] = []) {
        self.blockedRequests = blockedRequests
        self.warnings = warnings
    }

    /// The first rule blocking a request to `url` from a page of `siteHost`. Looks only in the
    /// entry for the request's eTLD+1.
    public func matchingRule(
        requestURL url: CanonicalURL, siteHost: String, publicSuffixList: PublicSuffixList = .bundled
    ) -> Rule? {
        guard let rules = rules(forHost: url.host, publicSuffixList: publicSuffixList) else { return nil }
        return rules.first { $0.matchesRequest(url) && $0.appliesOnSite(siteHost) }
    }

    /// The rules that can match a request to `host`: those of the entry for its registrable domain.
    func rules(forHost host: String, publicSuffixList: PublicSuffixList) -> [Rule]? {
        guard !blockedRequests.isEmpty, let domain = publicSuffixList.registrableDomain(of: host) else { return nil }
        return blockedRequests[domain]
    }

    init(blockedRequests value: JSONValue, file: String?, at path: JSONPath, publicSuffixList: PublicSuffixList) {
        self.init()
        func drop(_ path: JSONPath, _ message: String) {
            warnings.append(InputWarning(file: file, path: path, message: message))
        }
        guard case .object(let object) = value else {
            drop(path, "expected an object; the request blocklist is ignored")
            return
        }
        for (key, entryValue) in zip(object.keys, object.values) {
            let entryPath = path.appending(key: key)
            let domain = HostMatching.normalized(key)
            guard publicSuffixList.registrableDomain(of: domain) == domain else {
                drop(entryPath, "\"\(key.excerpt())\" is not an eTLD+1; entry dropped")
                continue
            }
            guard case .object(let entryObject) = entryValue, case .array(let ruleValues)? = entryObject["rules"] else {
                drop(entryPath, "expected an object with a \"rules\" array; entry dropped")
                continue
            }
            var rules: [Rule] = []
            for (index, ruleValue) in ruleValues.enumerated() {
                let rulePath = entryPath.appending(key: "rules").appending(index: index)
                guard case .object(let ruleObject) = ruleValue else {
                    drop(rulePath, "expected an object; rule dropped")
                    continue
                }
                if let unknown = ruleObject.keys.first(where: { !["rule", "domains", "reason"].contains($0) }) {
                    drop(rulePath.appending(key: unknown), "unknown property \"\(unknown.excerpt())\"; rule dropped")
                    continue
                }
                guard case .string(let pattern)? = ruleObject["rule"] else {
                    drop(rulePath.appending(key: "rule"), "expected a string; rule dropped")
                    continue
                }
                guard case .array(let domainValues)? = ruleObject["domains"], !domainValues.isEmpty else {
                    drop(rulePath.appending(key: "domains"), "expected a non-empty array of domains; rule dropped")
                    continue
                }
                let domains = domainValues.compactMap { value -> String? in
                    if case .string(let domain) = value { return HostMatching.normalized(domain) }
                    return nil
                }
                guard domains.count == domainValues.count else {
                    drop(rulePath.appending(key: "domains"), "expected an array of strings; rule dropped")
                    continue
                }
                var reason: String?
                if let reasonValue = ruleObject["reason"] {
                    guard case .string(let text) = reasonValue else {
                        drop(rulePath.appending(key: "reason"), "expected a string; rule dropped")
                        continue
                    }
                    reason = text
                }
                guard let rule = Rule(rule: pattern, domains: domains, reason: reason) else {
                    drop(rulePath.appending(key: "rule"), "\"\(pattern.excerpt())\" is not host[:port][/path]; rule dropped")
                    continue
                }
                guard HostMatching.host(rule.host, isWithin: domain) else {
                    drop(rulePath.appending(key: "rule"), "host \"\(rule.host.excerpt())\" is not within \"\(domain.excerpt())\"; rule dropped")
                    continue
                }
                rules.append(rule)
            }
            blockedRequests[domain, default: []] += rules
        }
    }
}

extension Character {
    fileprivate var isASCIIDigitCharacter: Bool { isASCII && isNumber }
}
