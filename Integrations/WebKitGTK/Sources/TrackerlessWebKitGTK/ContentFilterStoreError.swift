import CWebKitGTK

/// Why WebKitGTK's user content filter store could not give or compile a list.
public enum ContentFilterStoreError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No list is stored under the identifier.
    case notFound(identifier: String)
    /// WebKit's compiler refused the list, in its words (e.g. "Invalid url-filter object.").
    case invalidSource(identifier: String, message: String)
    /// Any other GLib error, with its domain, code and message.
    case other(identifier: String, domain: String, code: Int, message: String)

    /// Reads and frees a `GError` that a `…_finish` function set.
    init(consuming error: UnsafeMutablePointer<GError>, identifier: String) {
        let domain = String(cString: g_quark_to_string(error.pointee.domain))
        let code = Int(error.pointee.code)
        let message = String(cString: error.pointee.message)
        g_error_free(error)
        if domain == String(cString: g_quark_to_string(webkit_user_content_filter_error_quark())) {
            if code == Int(WEBKIT_USER_CONTENT_FILTER_ERROR_NOT_FOUND.rawValue) {
                self = .notFound(identifier: identifier)
                return
            }
            if code == Int(WEBKIT_USER_CONTENT_FILTER_ERROR_INVALID_SOURCE.rawValue) {
                self = .invalidSource(identifier: identifier, message: message)
                return
            }
        }
        self = .other(identifier: identifier, domain: domain, code: code, message: message)
    }

    public var description: String {
        switch self {
        case .notFound(let identifier): "content filter \(identifier): not in the store"
        case .invalidSource(let identifier, let message): "content filter \(identifier): \(message)"
        case .other(let identifier, let domain, let code, let message): "content filter \(identifier): \(domain) \(code): \(message)"
        }
    }
}
