import CWebKitWebProcessExtension
import RequestHookKit

/// Reads the extension's initialization user data.
enum UserData {
    /// The configuration in a `(bssasb)` GVariant, or nil when the variant is of another type.
    static func configuration(_ variant: OpaquePointer?) -> RequestHookConfiguration? {
        guard let variant, String(cString: g_variant_get_type_string(variant)) == RequestHookConfiguration.variantType else {
            return nil
        }
        func child(_ index: Int) -> OpaquePointer { g_variant_get_child_value(variant, gsize(index)) }
        func string(_ index: Int) -> String {
            let value = child(index)
            defer { g_variant_unref(value) }
            return String(cString: g_variant_get_string(value, nil))
        }
        let flag = child(0)
        let blocks = g_variant_get_boolean(flag) != 0
        g_variant_unref(flag)
        let gpcFlag = child(4)
        let gpc = g_variant_get_boolean(gpcFlag) != 0
        g_variant_unref(gpcFlag)
        let list = child(3)
        defer { g_variant_unref(list) }
        var count: gsize = 0
        var sites: [String] = []
        if let strings = g_variant_get_strv(list, &count) {
            for index in 0..<Int(count) { if let site = strings[index] { sites.append(String(cString: site)) } }
            g_free(UnsafeMutableRawPointer(mutating: strings))
        }
        return RequestHookConfiguration(
            blocksRequests: blocks, enginePath: string(1), navigationDataPath: string(2), sitesWithProtectionOff: sites,
            globalPrivacyControl: gpc)
    }
}
