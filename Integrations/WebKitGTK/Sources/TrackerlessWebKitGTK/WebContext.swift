import CWebKitGTK

/// A `WebKitWebContext`: the web processes of the views made in it, with their web-process
/// extensions and sandbox. Most hosts use ``default``; a second context runs its views' pages
/// with another extension configuration (the benchmark's rules and engine views side by side).
public final class WebContext {
    let pointer: OpaquePointer
    private let owned: Bool

    /// WebKit's default context, the one views are made in unless told otherwise.
    public static let `default` = WebContext(pointer: webkit_web_context_get_default(), owned: false)

    /// A new context of its own.
    public static func separate() -> WebContext { WebContext(pointer: webkit_web_context_new(), owned: true) }

    private init(pointer: OpaquePointer, owned: Bool) {
        self.pointer = pointer
        self.owned = owned
    }

    deinit { if owned { g_object_unref(UnsafeMutableRawPointer(pointer)) } }
}

extension WebContext: @unchecked Sendable {}
