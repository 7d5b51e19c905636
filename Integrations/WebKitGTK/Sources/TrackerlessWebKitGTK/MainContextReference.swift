/// A weak reference that may cross threads but is only read on the GLib main context's thread:
/// how a callback from another thread (an update finished) reaches an object of the main
/// context, through ``MainContext/post(_:)``.
final class MainContextReference<Object: AnyObject>: @unchecked Sendable {
    private weak var object: Object?

    init(_ object: Object) { self.object = object }

    /// The object; call only on the main context's thread.
    var value: Object? { object }
}
