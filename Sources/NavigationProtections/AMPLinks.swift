import Foundation
public import TrackerDataKit
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
///
/// NSRegularExpression, not `Regex`: `Regex` needs macOS 13 / iOS 16 and the package supports
/// macOS 12 / iOS 15 (Scripts/check-apple-availability.sh). Compiled once, in `init`.
private struct LinkFormat: @unchecked Sendable {
    // NSRegularExpression is immutable once compiled and documented as safe to use from any
    // thread; corelibs-foundation does not declare it Sendable.
    let regex: NSRegularExpression

    init(_ pattern: String) throws { regex = try NSRegularExpression(pattern: pattern) }

    /// The text of the first capture group of the first match, if it took part in the match.
    func firstCapture(in url: String) -> String? {
        guard regex.numberOfCaptureGroups > 0,
            let match = regex.firstMatch(in: url, range: NSRange(url.startIndex..., in: url)),
            let capture = Range(match.range(at: 1), in: url)
        else { return nil }
        return String(url[capture])
    }
}
