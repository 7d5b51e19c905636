import TrackerDataKit
import TrackerlessCore

/// The `protections` member of the compact tracker data: what the blocking script needs for the
/// privacy configuration's page-side protections, Global Privacy Control (`gpc`), referrer
/// trimming (`referrer`) and the cap on tracker scripts' first-party cookies (`cookie`).
///
/// One JSON object, keys sorted:
/// - `cnames`: cloaked host → target, for the hosts whose target is a tracker (cookies, referrer).
/// - `cookie`: false when the feature is off or has no usable `settings.firstPartyCookiePolicy`;
///   else `[exception domains, threshold, maxAge, excludedCookieDomains]`.
/// - `entities`: `" domain:index domain:index … "`, every `domains` entry of the tds with the
///   index of its entity among the entity names sorted (referrer trimming compares entities of
///   any two sites); `""` when the referrer feature is off.
/// - `gpc`, `referrer`: false when the feature is off, else its exception domains (feature
///   exceptions and `unprotectedTemporary`, covering subdomains).
/// - `psl`: `" suffix:kinds … "`, the whole Public Suffix List (kind bits as in `psl` of the
///   compact data; a plain rule, kind 1, is its name alone), when the referrer feature is on: its
///   registrable-domain test takes any host.
/// - `trackers`: `" key key … "`, every tracker key, when the cookie or referrer feature is on.
///
/// Texts with spaces and colons rather than JSON structure: a script scans a string literal far
/// faster than it builds an object literal, and finds `" host:"` with `indexOf`.
enum PageProtectionData {
    /// The feature names, as the privacy configuration spells them.
    static let gpc = "gpc", referrer = "referrer"

    /// The member's value for `configuration` (none: every feature off).
    static func json(
        trackerData: TrackerData, configuration: PrivacyConfiguration?, publicSuffixList: PublicSuffixList
    ) -> JSONValue {
        let referrerOn = exceptions(referrer, configuration) != nil
        let cookieValue = cookiePolicy(configuration)
        let needsTrackers = referrerOn || cookieValue != .bool(false)
        var members: [(String, JSONValue)] = []
        members.append(("cnames", needsTrackers ? cnames(trackerData) : .object(JSONObject())))
        members.append(("cookie", cookieValue))
        members.append(("entities", .string(referrerOn ? entities(trackerData) : "")))
        members.append(("gpc", feature(gpc, configuration)))
        members.append(("psl", .string(referrerOn ? suffixes(publicSuffixList) : "")))
        members.append(("referrer", feature(referrer, configuration)))
        members.append(("trackers", .string(needsTrackers ? trackers(trackerData) : "")))
        return .object(JSONObject(members))
    }

    /// The exception domains of an enabled feature, lowercased and sorted; nil when it is off.
    static func exceptions(_ name: String, _ configuration: PrivacyConfiguration?) -> [String]? {
        guard let configuration, let feature = configuration.features[name], feature.state == .enabled else { return nil }
        let domains = Set((feature.exceptions + configuration.unprotectedTemporary).map { $0.domain.lowercased() })
        return domains.filter { !$0.isEmpty }.sorted()
    }

    static func feature(_ name: String, _ configuration: PrivacyConfiguration?) -> JSONValue {
        exceptions(name, configuration).map { .array($0.map(JSONValue.string)) } ?? .bool(false)
    }

    /// `[exceptions, threshold, maxAge, excludedCookieDomains]`, or false.
    static func cookiePolicy(_ configuration: PrivacyConfiguration?) -> JSONValue {
        guard let domains = exceptions(FirstPartyCookiePolicy.feature, configuration),
            let policy = configuration.flatMap(FirstPartyCookiePolicy.Settings.init(configuration:))
        else { return .bool(false) }
        return .array([
            .array(domains.map(JSONValue.string)), .number(Double(policy.threshold)), .number(Double(policy.maxAge)),
            .array(policy.excludedCookieDomains.map(JSONValue.string)),
        ])
    }

    static func cnames(_ trackerData: TrackerData) -> JSONValue {
        var members: [(String, JSONValue)] = []
        for host in trackerData.cnames.keys.sorted() where host != "__proto__" {
            guard let target = trackerData.cnames[host], trackerData.tracker(forHost: target) != nil else { continue }
            members.append((host, .string(target)))
        }
        return .object(JSONObject(members))
    }

    static func trackers(_ trackerData: TrackerData) -> String {
        var text = " "
        for key in trackerData.trackers.keys.sorted() where isPlainName(key) { text += key + " " }
        return text
    }

    static func entities(_ trackerData: TrackerData) -> String {
        var index: [String: Int] = [:]
        for (position, name) in Set(trackerData.domains.values).sorted().enumerated() { index[name] = position }
        var text = " "
        for (domain, entity) in trackerData.domains.sorted(by: { $0.key < $1.key }) where isPlainName(domain) {
            guard let position = index[entity] else { continue }
            text += domain + ":" + String(position) + " "
        }
        return text
    }

    static func suffixes(_ list: PublicSuffixList) -> String {
        var text = " "
        for (suffix, kinds) in list.compactEntries() where isPlainName(suffix) {
            // Most entries are plain rules (kind 1): their name alone says so.
            text += kinds == 1 ? suffix + " " : suffix + ":" + String(kinds) + " "
        }
        return text
    }

    /// A name the texts can hold: not empty, no space or colon.
    static func isPlainName(_ name: String) -> Bool {
        !name.isEmpty && !name.utf8.contains(where: { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: ":") || $0 < 0x20 })
    }
}
