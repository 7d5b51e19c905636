public import TrackerlessCore

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
            guard url.port == port, DomainName.host(url.host, isWithin: host) else { return false }
            if pathPattern.isEmpty { return true }
            var pathAndQuery = url.path
            if let query = url.query { pathAndQuery += "?" + query }
            return Self.wildcardPrefixMatch(pattern: pathPattern, text: pathAndQuery)
        }

        /// Whether the rule applies on pages of `siteHost`.
        public func appliesOnSite(_ siteHost: String) -> Bool {
            appliesToAllSites || domains.contains { DomainName.host(siteHost, isWithin: $0) }
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
        matchingPosition(requestURL: url, siteHost: siteHost, publicSuffixList: publicSuffixList)
            .flatMap { blockedRequests[$0.domain]?[$0.index] }
    }

    /// Where the first rule blocking a request to `url` from a page of `siteHost` is: the key of
    /// its entry in ``blockedRequests`` (the request's eTLD+1) and its index in the entry.
    public func matchingPosition(
        requestURL url: CanonicalURL, siteHost: String, publicSuffixList: PublicSuffixList = .bundled
    ) -> (domain: String, index: Int)? {
        guard !blockedRequests.isEmpty, let domain = publicSuffixList.registrableDomain(of: url.host),
            let rules = blockedRequests[domain],
            let index = rules.firstIndex(where: { $0.matchesRequest(url) && $0.appliesOnSite(siteHost) })
        else { return nil }
        return (domain, index)
    }

    /// The rules that can match a request to `host`: those of the entry for its registrable domain.
    func rules(forHost host: String, publicSuffixList: PublicSuffixList) -> [Rule]? {
        guard !blockedRequests.isEmpty, let domain = publicSuffixList.registrableDomain(of: host) else { return nil }
        return blockedRequests[domain]
    }

    /// Reads the `blockedRequests` value that comes next; what is not a blocklist is dropped with
    /// a warning naming its path under `path`.
    init(
        blockedRequests reader: inout JSONReader, file: String?, at path: JSONPath, publicSuffixList: PublicSuffixList
    ) throws(JSONReadError) {
        self.init()
        guard var members = try reader.enterObjectIfPresent() else {
            warnings.append(InputWarning(file: file, path: path, message: "expected an object; the request blocklist is ignored"))
            return
        }
        while let key = try reader.nextKey(in: &members) {
            let name = key.string
            let entryPath = path.appending(key: name)
            let domain = DomainName.normalized(name)
            guard publicSuffixList.registrableDomain(of: domain) == domain else {
                try reader.skipValue()
                warnings.append(InputWarning(file: file, path: entryPath, message: "\"\(name.excerpt())\" is not an eTLD+1; entry dropped"))
                continue
            }
            let entry = try SettingsEntryRules.read(&reader, at: entryPath) { (reader, rulePath, warnings) throws(JSONReadError) -> Rule? in
                switch try Self.rule(&reader, domain: domain) {
                case .success(let rule):
                    return rule
                case .failure(let problem):
                    warnings.append(InputWarning(
                        file: file, path: problem.key.map { rulePath.appending(key: $0) } ?? rulePath, message: problem.message))
                    return nil
                }
            }
            guard let (rules, ruleWarnings) = entry else {
                warnings.append(InputWarning(file: file, path: entryPath, message: "expected an object with a \"rules\" array; entry dropped"))
                continue
            }
            warnings += ruleWarnings
            blockedRequests[domain, default: []] += rules
        }
    }

    /// The rule that comes next, checked in the order: an object, no unknown property (the first
    /// in document order), `rule` a string, `domains` a non-empty array of strings, `reason` a
    /// string, the pattern `host[:port][/path]` with its host within `domain`. A failure names
    /// the member it concerns (nil: the rule itself) and says why the rule is dropped.
    private static func rule(_ reader: inout JSONReader, domain: String) throws(JSONReadError) -> Result<Rule, RuleProblem> {
        guard var members = try reader.enterObjectIfPresent() else {
            return .failure(RuleProblem(key: nil, message: "expected an object; rule dropped"))
        }
        var unknown: String?
        var pattern: String??, domains: [String?]??, reason: String??
        while let key = try reader.nextKey(in: &members) {
            switch key {
            case "rule": pattern = .some(try reader.readStringIfPresent())
            case "domains": domains = .some(try TrackerAllowlist.optionalStrings(&reader))
            case "reason": reason = .some(try reader.readStringIfPresent())
            default:
                if unknown == nil { unknown = key.string }
                try reader.skipValue()
            }
        }
        if let unknown {
            return .failure(RuleProblem(key: unknown, message: "unknown property \"\(unknown.excerpt())\"; rule dropped"))
        }
        guard let pattern = pattern ?? nil else {
            return .failure(RuleProblem(key: "rule", message: "expected a string; rule dropped"))
        }
        guard let domainValues = domains ?? nil, !domainValues.isEmpty else {
            return .failure(RuleProblem(key: "domains", message: "expected a non-empty array of domains; rule dropped"))
        }
        let strings = domainValues.compactMap { $0.map(DomainName.normalized) }
        guard strings.count == domainValues.count else {
            return .failure(RuleProblem(key: "domains", message: "expected an array of strings; rule dropped"))
        }
        if case .some(nil) = reason {
            return .failure(RuleProblem(key: "reason", message: "expected a string; rule dropped"))
        }
        guard let rule = Rule(rule: pattern, domains: strings, reason: reason ?? nil) else {
            return .failure(RuleProblem(key: "rule", message: "\"\(pattern.excerpt())\" is not host[:port][/path]; rule dropped"))
        }
        guard DomainName.host(rule.host, isWithin: domain) else {
            return .failure(RuleProblem(
                key: "rule", message: "host \"\(rule.host.excerpt())\" is not within \"\(domain.excerpt())\"; rule dropped"))
        }
        return .success(rule)
    }

    /// Why a rule is dropped, and the member it concerns (nil: the rule itself).
    private struct RuleProblem: Error {
        var key: String?
        var message: String
    }
}

extension Character {
    fileprivate var isASCIIDigitCharacter: Bool { isASCII && isNumber }
}
