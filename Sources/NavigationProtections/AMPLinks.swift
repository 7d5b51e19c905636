import TrackerDataKit
import TrackerlessCore

/// DuckDuckGo's AMP link protection (`ampLinks`): the page an AMP cache link stands for, and
/// whether a URL looks like an AMP page.
///
/// `settings.linkFormats` are regular expressions whose first capture group is the canonical
/// page (`https://www.google.com/amp/s/(\S+)` → `https://` + the group);
/// `settings.keywords` are substrings that mark a URL as an AMP page (`/amp`, `amp.`, `?amp`).
/// Neither applies to a link on a site outside the feature's scope, and a canonical URL on such a
/// site is not used.
public struct AMPLinks: Sendable {
    /// The privacy-configuration feature.
    public static let feature = "ampLinks"

    /// The link formats, as the configuration gives them.
    public let linkFormats: [String]
    /// The keywords.
    public let keywords: [String]
    /// The link formats that did not compile, with the reason: they are skipped.
    public let invalidLinkFormats: [(pattern: String, reason: String)]
    private let formats: [LinkFormat]
    private let scope: ProtectionScope

    /// The protection as `configuration` sets it, with the user's allowlist.
    public init(configuration: PrivacyConfiguration, userAllowlist: UserAllowlist = UserAllowlist()) {
        scope = ProtectionScope(feature: Self.feature, configuration: configuration, userAllowlist: userAllowlist)
        linkFormats = scope.strings("linkFormats")
        keywords = scope.strings("keywords")
        var formats: [LinkFormat] = []
        var invalid: [(String, String)] = []
        for pattern in linkFormats {
            do { formats.append(try LinkFormat(pattern)) } catch { invalid.append((pattern, "\(error)")) }
        }
        self.formats = formats
        invalidLinkFormats = invalid
    }

    /// The canonical URL of an AMP cache link, or nil when `url` matches no link format, the
    /// protection does not apply to it, or the canonical URL is on a site outside its scope.
    public func canonicalURL(forAMPLink url: String) -> String? {
        guard scope.isEnabled, let host = CanonicalURL(url)?.host, scope.covers(host: host) else { return nil }
        for format in formats {
            guard var canonical = format.firstCapture(in: url) else { continue }
            if !canonical.lowercased().hasPrefix("http") { canonical = "https://" + canonical }
            guard let canonicalHost = CanonicalURL(canonical)?.host, scope.covers(host: canonicalHost) else { return nil }
            return canonical
        }
        return nil
    }

    /// Whether `url` contains one of the keywords (and the protection applies to it).
    public func isAMPKeywordURL(_ url: String) -> Bool {
        guard scope.isEnabled, let host = CanonicalURL(url)?.host, scope.covers(host: host) else { return false }
        return keywords.contains { !$0.isEmpty && url.contains($0) }
    }
}

/// One compiled `linkFormats` expression.
private struct LinkFormat: @unchecked Sendable {
    // Regex is immutable once compiled; it is not declared Sendable in this toolchain.
    let regex: Regex<AnyRegexOutput>

    init(_ pattern: String) throws { regex = try Regex(pattern) }

    /// The text of the first capture group of the first match, if it took part in the match.
    func firstCapture(in url: String) -> String? {
        guard let match = try? regex.firstMatch(in: url), match.output.count > 1,
            let capture = match.output[1].substring
        else { return nil }
        return String(capture)
    }
}
