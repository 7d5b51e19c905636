public import TrackerDataKit
public import TrackerlessCore

/// The tracker data the blocking script reads as `$TRACKER_DATA$`: exactly what its resolver needs
/// to give the `TrackerResolver`'s decision (action, reason, surrogate, tracker domain, owner),
/// and nothing more.
///
/// ```swift
/// let compact = CompactTrackerData(trackerData: tds, surrogates: surrogates, privacyConfiguration: config)
/// compact.json        // {"allowlist":[],"blocklist":{},"cnames":{...},"contentBlocking":[...],...}
/// compact.warnings    // trackers.example.com.rules[2].surrogate: no surrogate "x.js"; the rule blocks
/// ```
///
/// ## Format (version 2)
/// One JSON object, keys in a fixed order, every list and table sorted, so that the same inputs
/// give the same bytes:
/// - `version`: 2.
/// - `owners`: the JSON text of an array of the names of the entities that own a tracker, sorted;
///   other members refer to them by index. (JSON text, not lines: the script splits it with
///   `JSON.parse`, since `String.prototype.split` consults a page's
///   `String.prototype[Symbol.split]`.)
/// - `trackers`: the JSON text of an object, tracker key → `[owner, default, domain?]`: `owner` an
///   index into `owners` or -1; `default` 1 for `block`, 0 for anything else (the resolver's
///   default ignore); `domain` only when it differs from the key.
/// - `rules`: tracker key → the JSON text of the tracker's usable rules in order, for trackers
///   that have any. A rule is `[program, action, options?, exceptions?]`: `program` the rule's
///   expression compiled for the script (see below); `action` 1 for `ignore`, the surrogate's name
///   when the rule names a surrogate that exists, else 0 (block); `options` and `exceptions`
///   `[domains, types]` with null for a list that is absent, or null for no condition; a
///   Click-to-Load rule has a fifth member, its action (`block-ctl-fb`), the conditions then
///   written even when null. Rules with an unsupported action or an expression the resolver
///   cannot use are left out: they never apply.
/// - `clickToLoad`: where Click-to-Load rules block. Null without a privacy configuration (every
///   `block-ctl-*` action blocks); false when the `clickToLoad` feature is off; else
///   `[exception domains, {action: [owner indices]}]`: the feature's exceptions and
///   `unprotectedTemporary` (covering subdomains), and the actions an enabled entity lists, each
///   with the `owners` indices of the entities that list it (on their sites it does not block).
/// - `cnames`: cloaked host → target, only for hosts that are no tracker themselves and whose
///   target is one.
/// - `entities`: lines `domain<TAB>owner index` (-1 for an entity that owns no tracker), each
///   line preceded by a line feed and the text ending in one, so that a domain is found by
///   searching `\n<domain>\t`. Domains whose answer the next listed parent domain gives anyway
///   are left out.
/// - `protections`: the page-side protections of the privacy configuration (Global Privacy
///   Control, referrer trimming, the cap on tracker scripts' first-party cookies), whatever the
///   scope; see `PageProtectionData`.
/// - `psl`: public-suffix entries → kind bits (1 rule, 2 wildcard `*.x`, 4 exception `!x`, 0 only a
///   step to a longer entry), only the entries the script's eTLD+1 comparisons can reach: those at
///   or above a tracker key or request-blocklist domain, and those below its registrable domain.
/// - `userAllowlist`: site hosts where protection is off (exact hosts).
/// - `contentBlocking`, `trackerAllowlist`, `requestBlocklist`: false when the feature is off, else
///   its exception domains (feature exceptions and `unprotectedTemporary`, covering subdomains).
/// - `allowlist`: tracker-allowlist rules, `[host, lowercased path prefix, domains or 1 for all sites]`.
/// - `blocklist`: eTLD+1 → request-blocklist rules, `[host, port or null, path pattern, domains or 1]`.
///
/// Trackers, rules, owners and entities are text rather than JSON structure because a script
/// parses text far faster than object and array literals (in WebKitGTK the tracker table as an
/// object literal cost about as much start-up as everything else): start-up pays for scanning
/// strings, and a page parses the tracker table (with the engine's JSON parser) or a tracker's
/// rules when a decision first needs them.
///
/// ## Regular expressions
/// Each rule's expression is parsed the way the resolver parses it and compiled into the same
/// Thompson NFA as the resolver's matcher, written as a short text program (see `RuleProgram`)
/// that the script runs as the resolver runs its NFA: a set of states per position of the URL,
/// never backtracking, so that no rule makes a page wait (a JavaScript `RegExp` backtracks:
/// `(a+)+$` takes seconds on a few dozen characters). The script's answer is the resolver's for
/// every URL; an expression the resolver refuses, too large ones included, is left out with a
/// warning. Version 1 wrote JavaScript `RegExp` source instead.
///
/// ## Scope
/// ``Scope/all`` carries every tracker. ``Scope/surrogateTrackers`` carries
/// only what can lead to a `redirect`, for hosts whose content-blocker rules do the blocking (the
/// script then only picks the script elements a surrogate stands in for):
/// - the trackers with a rule naming a surrogate that exists (and not `ignore` or an unsupported
///   action) or with a Click-to-Load rule (whose embeds the script replaces with a placeholder),
///   each with all its rules in order, since an earlier rule can win; and every tracker
///   whose key is a subdomain of one of those, rules and all, since a request to it must find it
///   rather than the parent. Call this set S; it holds every subdomain of its keys that is a tracker;
/// - the CNAMEs whose target has a suffix in S (with S so closed, the resolver's walk of such a
///   target ends in S, and the walk of any other target ends outside S);
/// - the owners of S, and the `domains` entries whose answer is one of those owners or hides a
///   parent's answer that is one: the first-party test only asks whether the site's entity IS the
///   tracker's owner, so every other entity may read as none (-1);
/// - the public-suffix entries at or above the keys of S and the request-blocklist domains, and
///   those below their registrable domains (the same reasoning as for every tracker);
/// - the tracker-allowlist rules whose host is a key of S or kept CNAME host, a parent of one, or a
///   subdomain of one: no other rule can match a request to S's hosts;
/// - the request blocklist, the user allowlist and the features, whole.
///
/// It is exact: for a request whose host (or, without a tracker of its own, whose CNAME target)
/// leads to a tracker of S, every step of the resolver reads only what is kept, so the script's
/// decision is the `TrackerResolver`'s, `ignore` and `block` included. Every other request finds
/// no tracker in the script, so its answer is "no match" or a request-blocklist `block`, never
/// `redirect`; and the resolver never redirects such a request either, since only rules of S name
/// a surrogate.
public struct CompactTrackerData: Sendable {
    /// Which trackers the data holds.
    public enum Scope: String, Sendable, CaseIterable {
        /// Every tracker: the script decides every request as the resolver does (hosts that block
        /// in the script).
        case all
        /// Only the trackers a surrogate can stand in for, with all that decides their requests
        /// (hosts whose content-blocker rules block: the script only injects surrogates).
        case surrogateTrackers
    }

    /// The JSON the blocking script reads as `$TRACKER_DATA$` (deterministic: keys sorted / fixed order).
    public let json: String
    /// Problems found (a tds rule naming a missing surrogate, an expression the resolver cannot
    /// use ...), with their JSON path.
    public let warnings: [InputWarning]
    /// The trackers the data holds.
    public let scope: Scope

    /// The format version written as `version`.
    public static let formatVersion = 2

    public init(
        trackerData: TrackerData, surrogates: Surrogates = .bundled,
        privacyConfiguration: PrivacyConfiguration? = nil, userAllowlist: UserAllowlist = UserAllowlist(),
        publicSuffixList: PublicSuffixList = .bundled, scope: Scope = .all
    ) {
        self.scope = scope
        var builder = Builder(
            trackerData: trackerData, surrogates: surrogates, publicSuffixList: publicSuffixList, scope: scope)
        var writer = JSONWriter(capacity: 1 << 19)
        builder.write(to: &writer, privacyConfiguration: privacyConfiguration, userAllowlist: userAllowlist)
        json = String(decoding: writer.bytes, as: UTF8.self)
        warnings = builder.warnings.sorted { $0.description < $1.description }
    }
}

extension CompactTrackerData {
    private struct Builder {
        let trackerData: TrackerData
        let surrogates: Surrogates
        let publicSuffixList: PublicSuffixList
        /// The keys of the trackers written, sorted by bytes.
        let keys: [String]
        /// `keys` as a set, or nil for every tracker.
        let scopedKeys: Set<String>?
        var warnings: [InputWarning] = []

        init(trackerData: TrackerData, surrogates: Surrogates, publicSuffixList: PublicSuffixList, scope: Scope) {
            self.trackerData = trackerData
            self.surrogates = surrogates
            self.publicSuffixList = publicSuffixList
            switch scope {
            case .all:
                keys = Self.sortedByBytes(trackerData.trackers.keys)
                scopedKeys = nil
            case .surrogateTrackers:
                let scoped = Self.surrogateTrackerKeys(trackerData, surrogates)
                keys = Self.sortedByBytes(scoped)
                scopedKeys = scoped
            }
        }

        /// The trackers with a rule that can redirect, and every tracker under one of them.
        static func surrogateTrackerKeys(_ trackerData: TrackerData, _ surrogates: Surrogates) -> Set<String> {
            var redirecting = Set<String>()
            for (key, tracker) in trackerData.trackers where tracker.rules.contains(where: { rule in
                if case .blockClickToLoad? = rule.action { return true }
                if let action = rule.action, !action.isSupported { return false }
                if case .ignore? = rule.action { return false }
                return rule.surrogate.map(surrogates.contains) ?? false
            }) {
                redirecting.insert(key)
            }
            guard !redirecting.isEmpty else { return [] }
            return Set(trackerData.trackers.keys.filter { key in suffixes(of: key).contains(where: redirecting.contains) })
        }

        /// Whether `host` or one of its parents is a tracker written.
        func leadsToWrittenTracker(_ host: String) -> Bool {
            guard let scopedKeys else { return true }
            return Self.suffixes(of: host).contains(where: scopedKeys.contains)
        }

        /// Writes the members in the order of their keys.
        mutating func write(to writer: inout JSONWriter, privacyConfiguration: PrivacyConfiguration?, userAllowlist: UserAllowlist) {
            // The entities that list a Click-to-Load action need an index too: the script asks
            // whether the site is theirs.
            let clickToLoadEntities = privacyConfiguration?.clickToLoadEntities ?? [:]
            let ownerNames = Self.sortedByBytes(
                Set(keys.compactMap { trackerData.trackers[$0]?.owner?.name }).union(clickToLoadEntities.keys))
            var ownerIndex: [String: Int] = [:]
            for (index, name) in ownerNames.enumerated() { ownerIndex[name] = index }
            let configuration = privacyConfiguration
            let blocklist = configuration?.requestBlocklist ?? RequestBlocklist()
            let features = PrivacyConfiguration.FeatureName.self

            writer.writeRaw("{\"allowlist\":")
            let cnames = cnames()
            writer.write(allowlist(configuration?.trackerAllowlist ?? TrackerAllowlist(), cnameHosts: cnames.map(\.0)))
            writer.writeRaw(",\"blocklist\":")
            writer.write(Self.blocklist(blocklist))
            writer.writeRaw(",\"clickToLoad\":")
            writer.write(Self.clickToLoad(configuration, ownerIndex: ownerIndex))
            writer.writeRaw(",\"cnames\":")
            writer.write(.object(JSONObject(cnames)))
            writer.writeRaw(",\"contentBlocking\":")
            writer.write(Self.feature(features.contentBlocking, configuration, whenAbsent: true))
            writer.writeRaw(",\"entities\":")
            writer.writeString(entities(ownerIndex: ownerIndex))
            writer.writeRaw(",\"owners\":")
            var ownersText = JSONWriter(capacity: ownerNames.reduce(2) { $0 + $1.utf8.count + 3 })
            ownersText.write(.array(ownerNames.map(JSONValue.string)))
            writer.writeString(String(decoding: ownersText.bytes, as: UTF8.self))
            writer.writeRaw(",\"protections\":")
            writer.write(PageProtectionData.json(
                trackerData: trackerData, configuration: configuration, publicSuffixList: publicSuffixList))
            writer.writeRaw(",\"psl\":")
            writer.write(publicSuffixEntries(domains: keys + blocklist.blockedRequests.keys))
            let (trackersText, rules) = trackers(ownerIndex: ownerIndex)
            writer.writeRaw(",\"requestBlocklist\":")
            writer.write(Self.feature(features.requestBlocklist, configuration, whenAbsent: false))
            writer.writeRaw(",\"rules\":")
            writer.writeRaw(String(decoding: rules.bytes, as: UTF8.self))
            writer.writeRaw(",\"trackerAllowlist\":")
            writer.write(Self.feature(features.trackerAllowlist, configuration, whenAbsent: false))
            writer.writeRaw(",\"trackers\":")
            writer.writeString(trackersText)
            writer.writeRaw(",\"userAllowlist\":")
            writer.write(.array(userAllowlist.hosts.map(JSONValue.string)))
            writer.writeRaw(",\"version\":")
            writer.writeNumber(Double(CompactTrackerData.formatVersion))
            writer.writeRaw("}")
        }

        // MARK: Trackers

        /// The `trackers` text and the `rules` object.
        mutating func trackers(ownerIndex: [String: Int]) -> (text: String, rules: JSONWriter) {
            // Written as bytes: JSONWriter's calls cost more than the few bytes a tracker takes.
            var text: [UInt8] = []
            text.reserveCapacity(trackerData.trackers.count * 40)
            text.append(UInt8(ascii: "{"))
            var rulesObject = JSONWriter()
            rulesObject.writeRaw("{")
            var hasRules = false
            for key in keys {
                let tracker = trackerData.trackers[key]!
                // In the `rules` object literal this key would set the object's prototype; it is no host name.
                if key == "__proto__" {
                    warnings.append(InputWarning(
                        path: JSONPath.root.appending(key: "trackers").appending(key: key),
                        message: "a tracker key that is no host name cannot be written for the script; left out"))
                    continue
                }
                if text.count > 1 { text.append(UInt8(ascii: ",")) }
                Self.appendQuoted(key, to: &text)
                text.append(UInt8(ascii: ":"))
                text.append(UInt8(ascii: "["))
                Self.appendInteger(tracker.ownerName.flatMap { ownerIndex[$0] } ?? -1, to: &text)
                text.append(UInt8(ascii: ","))
                text.append(tracker.defaultAction == .block ? UInt8(ascii: "1") : UInt8(ascii: "0"))
                if tracker.domain != key {
                    text.append(UInt8(ascii: ","))
                    Self.appendQuoted(tracker.domain, to: &text)
                }
                text.append(UInt8(ascii: "]"))
                var rules: JSONWriter?
                for (index, rule) in tracker.rules.enumerated() {
                    guard let compact = compactRule(rule, key: key, index: index) else { continue }
                    if rules == nil {
                        rules = JSONWriter()
                        rules?.writeRaw("[")
                    } else {
                        rules?.writeRaw(",")
                    }
                    if rules != nil { Self.write(compact, to: &rules!) }
                }
                if var rules {
                    rules.writeRaw("]")
                    if hasRules { rulesObject.writeRaw(",") }
                    hasRules = true
                    rulesObject.writeString(key)
                    rulesObject.writeRaw(":")
                    rulesObject.writeString(String(decoding: rules.bytes, as: UTF8.self))
                }
            }
            rulesObject.writeRaw("}")
            text.append(UInt8(ascii: "}"))
            if let scopedKeys { warnMissingSurrogates(outside: scopedKeys) }
            return (String(decoding: text, as: UTF8.self), rulesObject)
        }

        /// Appends `string` as ``JSONWriter/writeString(_:)`` writes it.
        static func appendQuoted(_ string: String, to bytes: inout [UInt8]) {
            // JSONWriter escapes only `"`, `\` and control characters.
            let isPlain = string.utf8.withContiguousStorageIfAvailable { utf8 in
                guard !utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else { return false }
                bytes.append(UInt8(ascii: "\""))
                bytes.append(contentsOf: utf8)
                bytes.append(UInt8(ascii: "\""))
                return true
            } ?? false
            if !isPlain {
                var writer = JSONWriter()
                writer.writeString(string)
                bytes.append(contentsOf: writer.bytes)
            }
        }

        /// Appends an integer as ``JSONWriter/writeNumber(_:)`` writes it.
        static func appendInteger(_ value: Int, to bytes: inout [UInt8]) {
            if value < 0 { bytes.append(UInt8(ascii: "-")) }
            let magnitude = value.magnitude
            var divisor: UInt = 1
            while magnitude / divisor >= 10 { divisor *= 10 }
            while divisor > 0 {
                bytes.append(UInt8(ascii: "0") + UInt8(magnitude / divisor % 10))
                divisor /= 10
            }
        }

        /// The trackers a scope leaves out are not written, but a rule of theirs naming a missing
        /// surrogate is still a problem of the input (the reason it is left out, often): reported
        /// as for every tracker.
        mutating func warnMissingSurrogates(outside scopedKeys: Set<String>) {
            for key in trackerData.trackers.keys where !scopedKeys.contains(key) {
                for (index, rule) in trackerData.trackers[key]!.rules.enumerated() {
                    guard let surrogate = rule.surrogate, !surrogates.contains(surrogate), rule.action?.isSupported ?? true
                    else { continue }
                    if case .ignore? = rule.action { continue }
                    warnings.append(Self.missingSurrogate(surrogate, key: key, index: index))
                }
            }
        }

        static func missingSurrogate(_ surrogate: String, key: String, index: Int) -> InputWarning {
            InputWarning(
                path: JSONPath.root.appending(key: "trackers").appending(key: key).appending(key: "rules")
                    .appending(index: index).appending(key: "surrogate"),
                message: "no surrogate \"\(surrogate)\"; the rule blocks instead")
        }

        /// A usable rule's members: `[program, action, options?, exceptions?]`.
        struct CompactRule {
            var program: String
            var action: JSONValue
            var options: JSONValue
            var exceptions: JSONValue
            /// The `block-ctl-*` action, or nil.
            var clickToLoadAction: String?
        }

        /// Writes `[program, action, options?, exceptions?]`, the conditions only when one is set.
        static func write(_ rule: CompactRule, to writer: inout JSONWriter) {
            writer.writeRaw("[")
            writer.writeString(rule.program)
            writer.writeRaw(",")
            writer.write(rule.action)
            let hasExceptions = rule.exceptions != .null || rule.clickToLoadAction != nil
            if hasExceptions || rule.options != .null {
                writer.writeRaw(",")
                writer.write(rule.options)
            }
            if hasExceptions {
                writer.writeRaw(",")
                writer.write(rule.exceptions)
            }
            if let action = rule.clickToLoadAction {
                writer.writeRaw(",")
                writer.writeString(action)
            }
            writer.writeRaw("]")
        }

        mutating func compactRule(_ rule: Tracker.Rule, key: String, index: Int) -> CompactRule? {
            var path: JSONPath {
                JSONPath.root.appending(key: "trackers").appending(key: key).appending(key: "rules").appending(index: index)
            }
            if let action = rule.action, !action.isSupported { return nil }
            let program: String
            do throws(TrackerRuleRegex.ParseError) {
                // The program is built as the resolver builds its matcher, so a rule it refuses
                // as too large is refused here with the same error.
                program = try RuleProgram.program(of: TrackerRuleRegex(parsing: rule.rule))
            } catch {
                warnings.append(InputWarning(
                    path: path.appending(key: "rule"),
                    message: "unusable regular expression \"\(rule.rule)\": \(error); the rule is left out"))
                return nil
            }
            var action: JSONValue = .number(0)
            if case .ignore? = rule.action {
                action = .number(1)
            } else if let surrogate = rule.surrogate {
                if surrogates.contains(surrogate) {
                    action = .string(surrogate)
                } else {
                    warnings.append(Self.missingSurrogate(surrogate, key: key, index: index))
                }
            }
            var clickToLoadAction: String?
            if case .blockClickToLoad(let name)? = rule.action { clickToLoadAction = name }
            return CompactRule(
                program: program, action: action, options: Self.condition(rule.options), exceptions: Self.condition(rule.exceptions),
                clickToLoadAction: clickToLoadAction)
        }

        static func condition(_ condition: Tracker.Rule.Condition?) -> JSONValue {
            guard let condition, !condition.isEmpty else { return .null }
            let domains: JSONValue = condition.domains.map { .array($0.map { .string(DomainName.normalized($0)) }) } ?? .null
            let types: JSONValue = condition.types.map { .array($0.map { .string($0.rawValue) }) } ?? .null
            return .array([domains, types])
        }

        // MARK: CNAMEs and entities

        func cnames() -> [(String, JSONValue)] {
            var members: [(String, JSONValue)] = []
            for host in trackerData.cnames.keys.sorted() {
                let target = trackerData.cnames[host]!
                guard host != "__proto__", trackerData.tracker(forHost: host) == nil, trackerData.tracker(forHost: target) != nil,
                    leadsToWrittenTracker(target)
                else { continue }
                members.append((host, .string(target)))
            }
            return members
        }

        func entities(ownerIndex: [String: Int]) -> String {
            func parentAnswer(_ domain: String) -> Int {
                guard let dot = domain.firstIndex(of: ".") else { return -1 }
                let parent = String(domain[domain.index(after: dot)...])
                // The resolver's walk never looks a bare top-level domain up.
                guard parent.contains(".") else { return -1 }
                return trackerData.entityName(forHost: parent).flatMap { ownerIndex[$0] } ?? -1
            }
            var text: [UInt8] = [0x0A]
            text.reserveCapacity(trackerData.domains.count * 24)
            for (domain, entity) in Self.sortedByBytes(trackerData.domains, key: \.key) {
                let answer = ownerIndex[entity] ?? -1
                // A domain of an entity that owns no tracker only matters when it hides a parent's owner.
                if answer == -1, parentAnswer(domain) == -1 { continue }
                // A domain with a line feed or tab could not be searched for; no host has one.
                guard !domain.utf8.contains(where: { $0 == 0x0A || $0 == 0x09 }) else { continue }
                text.append(contentsOf: domain.utf8)
                text.append(0x09)
                text.append(contentsOf: String(answer).utf8)
                text.append(0x0A)
            }
            return String(decoding: text, as: UTF8.self)
        }

        // MARK: Privacy configuration

        /// The `clickToLoad` member (see the format).
        static func clickToLoad(_ configuration: PrivacyConfiguration?, ownerIndex: [String: Int]) -> JSONValue {
            guard let configuration else { return .null }
            guard case .array(let exceptions) = feature(PrivacyConfiguration.FeatureName.clickToLoad, configuration, whenAbsent: false)
            else { return .bool(false) }
            let entities = configuration.clickToLoadEntities
            let actions = sortedByBytes(configuration.supportedClickToLoadRuleActions).map { action -> (String, JSONValue) in
                let owners = entities.filter { $0.value.ruleActions.contains(action) }.compactMap { ownerIndex[$0.key] }.sorted()
                return (action, .array(owners.map { .number(Double($0)) }))
            }
            return .array([.array(exceptions), .object(JSONObject(actions))])
        }

        static func feature(_ name: String, _ configuration: PrivacyConfiguration?, whenAbsent: Bool) -> JSONValue {
            guard let configuration else { return whenAbsent ? .array([]) : .bool(false) }
            guard let feature = configuration.features[name], feature.state == .enabled else { return .bool(false) }
            // `isFeatureEnabled` compares these domains as written, ignoring ASCII case only.
            let domains = Set((feature.exceptions + configuration.unprotectedTemporary).map { DomainName.normalized($0.domain) })
            return .array(domains.filter { !$0.isEmpty }.sorted().map(JSONValue.string))
        }

        static func sites(_ domains: [String], all: Bool) -> JSONValue {
            all ? .number(1) : .array(domains.filter { !$0.isEmpty }.map(JSONValue.string))
        }

        /// The allowlist rules; in a scope, only those that can match a request to one of its
        /// trackers' hosts or CNAME hosts: their host is one of those names, a parent or a subdomain.
        func allowlist(_ allowlist: TrackerAllowlist, cnameHosts: [String]) -> JSONValue {
            var relevant: ((String) -> Bool)?
            if let scopedKeys {
                let names = scopedKeys.union(cnameHosts)
                let parents = Set(names.flatMap(Self.suffixes(of:)))
                relevant = { host in parents.contains(host) || Self.suffixes(of: host).contains(where: names.contains) }
            }
            var rules: [JSONValue] = []
            for entry in allowlist.entries {
                for rule in entry.rules where relevant?(rule.host) ?? true {
                    rules.append(.array([
                        .string(rule.host), .string(rule.pathPrefix.lowercased()),
                        Self.sites(rule.domains, all: rule.appliesToAllSites),
                    ]))
                }
            }
            return .array(rules)
        }

        static func blocklist(_ blocklist: RequestBlocklist) -> JSONValue {
            var members: [(String, JSONValue)] = []
            for domain in blocklist.blockedRequests.keys.sorted() {
                let rules = blocklist.blockedRequests[domain]!.map { rule -> JSONValue in
                    .array([
                        .string(rule.host), rule.port.map { .number(Double($0)) } ?? .null, .string(rule.pathPattern),
                        sites(rule.domains, all: rule.appliesToAllSites),
                    ])
                }
                members.append((domain, .array(rules)))
            }
            return .object(JSONObject(members))
        }

        // MARK: Public suffixes

        /// The entries the script's `registrableDomain` can reach for the hosts it compares: a
        /// request host under a tracker key K (or a request-blocklist domain) and a site host whose
        /// registrable domain is compared with the request's. Those hosts only ever meet entries at
        /// or above K, or below the registrable domain of K (K itself when it is a public suffix).
        func publicSuffixEntries(domains: [String]) -> JSONValue {
            // Names are compared by a hash of their bytes (Swift's string hashing made this the
            // slowest step). A collision only keeps an entry more, which changes no answer: the
            // script's answers for the hosts it compares are those of the whole list already.
            var ancestors = NameHashSet(capacity: domains.count * 4)
            var bases = NameHashSet(capacity: domains.count)
            for key in domains {
                Self.forEachSuffixHash(of: key) { ancestors.insert($0) }
                bases.insert(Self.hash(publicSuffixList.registrableDomain(of: key) ?? key))
            }
            var kept: [(String, JSONValue)] = []
            for (suffix, kinds) in publicSuffixList.compactEntries() {
                var isBelowBase = false
                var fullName: UInt64 = 0
                Self.forEachSuffixHash(of: suffix) { hash in
                    if bases.contains(hash) { isBelowBase = true }
                    fullName = hash
                }
                if isBelowBase || ancestors.contains(fullName) { kept.append((suffix, .number(Double(kinds)))) }
            }
            kept.sort { $0.0 < $1.0 }
            return .object(JSONObject(kept))
        }

        /// FNV-1a of the name's bytes taken right to left.
        static func hash(_ name: String) -> UInt64 {
            var result: UInt64 = 0
            forEachSuffixHash(of: name) { result = $0 }
            return result
        }

        /// Calls `body` with the hash of each parent of `name` down to the last label, last label
        /// first, and then of `name` itself; each hash is the one `hash(_:)` gives that name.
        static func forEachSuffixHash(of name: String, _ body: (UInt64) -> Void) {
            // Names have contiguous UTF-8 (native strings): read it through a buffer rather than
            // string indices.
            let handled: Void? = name.utf8.withContiguousStorageIfAvailable { forEachSuffixHash(of: $0, body) }
            if handled == nil { forEachSuffixHash(of: Array(name.utf8), body) }
        }

        static func forEachSuffixHash(of utf8: some RandomAccessCollection<UInt8>, _ body: (UInt64) -> Void) {
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            var index = utf8.endIndex
            while index > utf8.startIndex {
                utf8.formIndex(before: &index)
                let byte = utf8[index]
                if byte == UInt8(ascii: ".") { body(hash) }
                hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
            }
            body(hash)
        }

        // MARK: Hosts

        /// The strings sorted on their first 8 UTF-8 bytes, then by String's order: for the ASCII
        /// names of the data the order of their bytes, and faster than String comparisons alone.
        static func sortedByBytes(_ strings: some Collection<String>) -> [String] {
            sortedByBytes(strings, key: { $0 })
        }

        /// The elements sorted by their keys as ``sortedByBytes(_:)`` sorts strings.
        static func sortedByBytes<Element>(_ elements: some Collection<Element>, key: (Element) -> String) -> [Element] {
            var items: [(prefix: UInt64, element: Element)] = []
            items.reserveCapacity(elements.count)
            for element in elements {
                var prefix: UInt64 = 0
                var count = 0
                for byte in key(element).utf8 {
                    prefix = prefix << 8 | UInt64(byte)
                    count += 1
                    if count == 8 { break }
                }
                items.append((prefix << (8 * UInt64(8 - count)), element))
            }
            // Ties (google.com.ar, google.com.au ...) fall back on String's comparison, which
            // orders ASCII by bytes too.
            items.sort { first, second in
                first.prefix != second.prefix ? first.prefix < second.prefix : key(first.element) < key(second.element)
            }
            return items.map(\.element)
        }

        /// `a.b.c`, `b.c`, `c`: the name and every parent, down to the last label.
        static func suffixes(of name: String) -> [String] {
            [name] + DomainName.parentDomains(of: name)
        }
    }
}

