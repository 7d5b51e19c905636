// Which WebKit this app runs, for the rule lists it builds. Apple-only, like the rest of the
// module; the mapping itself (`WebKitTarget.appleWebKit(bundleVersion:)`) is plain Swift and
// tested on Linux.
#if canImport(WebKit)
public import ContentRuleList
import Foundation
import WebKit

extension WebKitTarget {
    /// The target of the WebKit framework this process runs, from its `CFBundleVersion` (the
    /// system's WebKit: on macOS the installed Safari's, on iOS the OS's), for
    /// ``TrackerlessRuntime/ProtectionInputs/webKit``. A version it cannot read gives the oldest
    /// target, which every supported WebKit compiles.
    public static var runningAppleWebKit: WebKitTarget {
        let version = Bundle(for: WKWebView.self).object(forInfoDictionaryKey: "CFBundleVersion") as? String
        return version.flatMap { appleWebKit(bundleVersion: $0) } ?? .oldest
    }
}
#endif
