import CWebKitGTK
public import ContentRuleList

extension WebKitTarget {
    /// The target of the WebKitGTK this process runs (`webkit_get_major_version()` and
    /// `webkit_get_minor_version()`), for ``TrackerlessRuntime/ProtectionInputs/webKit``: the
    /// rule lists then use everything this WebKit knows, and nothing it does not. A WebKitGTK
    /// older than every supported one gets the oldest target, whose lists it may still refuse.
    public static var runningWebKitGTK: WebKitTarget {
        webKitGTK(major: Int(webkit_get_major_version()), minor: Int(webkit_get_minor_version())) ?? .oldest
    }
}
