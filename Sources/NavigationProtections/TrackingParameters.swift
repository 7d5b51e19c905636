public import TrackerDataKit
import TrackerlessCore

/// DuckDuckGo's tracking-parameter protection (`trackingParameters`): a navigation's URL without
/// the query parameters the privacy configuration names (`settings.parameters`).
///
/// A parameter is removed when its name, the text before its first `=`, equals a listed name
/// exactly (case-sensitive, never as a pattern: `bad.` does not remove `badx`), every occurrence
/// of it; every other byte of the URL is kept as it was, percent-escapes and order included. The
/// protection is off for a navigation whose URL or initiator is on a site outside the feature's
/// scope (its exceptions, `unprotectedTemporary`, the user's allowlist).
public struct TrackingParameters: Sendable {
    /// The privacy-configuration feature.
    public static let feature = "trackingParameters"

    /// The names removed.
    public let parameters: Set<String>
    private let scope: ProtectionScope

    /// The protection as `configuration` sets it, with the user's allowlist.
    public init(configuration: PrivacyConfiguration, userAllowlist: UserAllowlist = UserAllowlist()) {
        scope = ProtectionScope(feature: Self.feature, configuration: configuration, userAllowlist: userAllowlist)
        parameters = Set(scope.strings("parameters"))
    }

    /// `url` without its tracking parameters; `url` itself when none is removed or the protection
    /// does not apply. `initiator` is the URL of the page that started the navigation, if any.
    public func cleaning(_ url: String, initiator: String? = nil) -> String {
        guard scope.isEnabled, !parameters.isEmpty, let host = CanonicalURL(url)?.host, scope.covers(host: host) else { return url }
        if let initiator, let initiatorHost = CanonicalURL(initiator)?.host, !scope.covers(host: initiatorHost) { return url }
        return Self.removing(parameters, from: url)
    }

    /// `url` with every query parameter named in `names` removed, the rest byte for byte.
    static func removing(_ names: Set<String>, from url: String) -> String {
        let fragmentStart = url.firstIndex(of: "#") ?? url.endIndex
        guard let queryMark = url[..<fragmentStart].firstIndex(of: "?") else { return url }
        let query = url[url.index(after: queryMark)..<fragmentStart]
        let pairs = query.split(separator: "&", omittingEmptySubsequences: false)
        let kept = pairs.filter { pair in
            let name = pair.firstIndex(of: "=").map { pair[..<$0] } ?? pair
            return !names.contains(String(name))
        }
        guard kept.count != pairs.count else { return url }
        let base = url[..<queryMark]
        let rest = url[fragmentStart...]
        return kept.isEmpty ? String(base + rest) : String(base) + "?" + kept.joined(separator: "&") + rest
    }
}
