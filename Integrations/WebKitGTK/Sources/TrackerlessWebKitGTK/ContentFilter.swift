import CWebKitGTK

/// A compiled content-rule list of WebKitGTK's user content filter store (`WebKitUserContentFilter`).
///
/// The filter is reference counted by WebKit; this object holds one reference.
public final class ContentFilter {
    let pointer: OpaquePointer

    /// Takes over a reference returned by WebKit (`…_finish` functions return one).
    init(taking pointer: OpaquePointer) { self.pointer = pointer }

    deinit { webkit_user_content_filter_unref(pointer) }

    /// The identifier it was saved under.
    public var identifier: String { String(cString: webkit_user_content_filter_get_identifier(pointer)) }
}
