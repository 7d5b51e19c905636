import FuzzSupport
import NavigationProtections
import TrackerDataKit
import UserScripts

/// Strings a page chooses, read by the navigation protections and the cookie cap: byte 0 picks
/// the reader (0 a navigation: URL, NUL, referrer, NUL, initiator; 1 a `document.cookie` write),
/// the rest is the input as UTF-8 (invalid bytes repaired, as a web view's strings are).
///
/// Invariants: nothing traps; a navigation's decision is a deterministic function of it, and its
/// URL is the input's unless a reason says why; a cookie written by a script that is no tracker
/// is written as it is, and one the cap rewrote lives at most `maxAge` seconds.
@_cdecl("LLVMFuzzerTestOneInput")
public func pageInputsFuzzer(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    guard let (format, bytes) = FuzzInput.format(start, count, of: 2) else { return 0 }
    switch format {
    case 0: navigation(bytes)
    default: cookie(String(decoding: bytes, as: UTF8.self))
    }
    return 0
}

/// Every navigation protection on, with a tracking parameter, an AMP link format and a keyword.
let configuration: PrivacyConfiguration = {
    let json = #"""
        {"features": {
          "trackingParameters": {"state": "enabled", "exceptions": [], "settings": {"parameters": ["utm_source", "fbclid", "gclid"]}},
          "ampLinks": {"state": "enabled", "exceptions": [], "settings": {"linkFormats": ["^https?://(?:w{3}\\.)?google\\.\\w{2,}/amp/s/(\\S+)$"], "keywords": ["/amp", "amp="], "deepExtractionEnabled": false}},
          "gpc": {"state": "enabled", "exceptions": [], "settings": {"gpcHeaderEnabledSites": ["site.example"]}},
          "referrer": {"state": "enabled", "exceptions": []},
          "cookie": {"state": "enabled", "exceptions": [], "settings": {"firstPartyCookiePolicy": {"threshold": 86400, "maxAge": 604800}}}
        }, "unprotectedTemporary": []}
        """#
    // Our own fixture: failing to parse it is a broken fuzzer, not a finding.
    guard let configuration = try? PrivacyConfiguration(parsing: Array(json.utf8)) else { fatalError("fuzz configuration") }
    return configuration
}()

let protector = NavigationProtector(configuration: configuration, trackerData: FuzzTrackerData.sample)
let cookiePolicy = FirstPartyCookiePolicy(configuration: configuration, trackerData: FuzzTrackerData.sample)

func navigation(_ bytes: [UInt8]) {
    let parts = bytes.split(separator: 0, maxSplits: 2, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
    let url = parts[0]
    let referrer = parts.count > 1 ? parts[1] : nil
    let initiator = parts.count > 2 ? parts[2] : nil
    let navigation = Navigation(url: url, initiator: initiator, referrer: referrer)
    let decision = protector.decision(for: navigation)
    require(decision == protector.decision(for: navigation), "the decision for \(url.prefix(200)) is not deterministic")
    require(decision.url == url || !decision.reasons.isEmpty, "\(url.prefix(200)) became \(decision.url.prefix(200)) with no reason")
    for site in FuzzRequests.sites {
        _ = protector.referrerTrimming.documentReferrer(url, topURL: site, frameURL: referrer)
        _ = protector.referrerTrimming.subrequestReferrer(referrer, topURL: site, requestURL: url)
        _ = protector.globalPrivacyControl.headerValue(topURL: url)
    }
}

func cookie(_ text: String) {
    let now = 1_800_000_000.0
    let site = "https://site.example/"
    require(cookiePolicy.documentCookie(text, scriptURL: "https://site.example/app.js", topURL: site, now: now) == text,
            "a first-party script's cookie was changed: \(text.prefix(200))")
    let written = cookiePolicy.documentCookie(text, scriptURL: "https://tracker.example/a.js", topURL: site, now: now)
    if written != text, let lifetime = DocumentCookie(written).lifetime(now: now) {
        require(lifetime <= 604_800, "the capped cookie \(written.prefix(200)) lives \(lifetime) s")
    }
    _ = DocumentCookie.date(Substring(text))
}
