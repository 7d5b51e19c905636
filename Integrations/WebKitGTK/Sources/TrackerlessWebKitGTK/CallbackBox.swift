package import CWebKitGTK

/// A Swift value handed to a C callback as its `gpointer user_data`.
///
/// GLib calls back on the thread that runs the main context: the adapter runs it on the main
/// thread, so every box is created and read there. `retained` boxes are released by GLib's destroy
/// notification (signal handlers, idle sources) or by the one callback that consumes them
/// (`GAsyncReadyCallback`).
package final class CallbackBox<Value> {
    package let value: Value

    package init(_ value: Value) { self.value = value }

    /// A +1 pointer for GLib to own; `release(_:)` or `take(_:)` balances it.
    package func retained() -> gpointer { Unmanaged.passRetained(self).toOpaque() }

    /// The box behind a pointer from `retained()`, without consuming it.
    package static func peek(_ pointer: gpointer?) -> Value {
        Unmanaged<CallbackBox<Value>>.fromOpaque(pointer!).takeUnretainedValue().value
    }

    /// The box behind a pointer from `retained()`, consuming the pointer (one-shot callbacks).
    package static func take(_ pointer: gpointer?) -> Value {
        Unmanaged<CallbackBox<Value>>.fromOpaque(pointer!).takeRetainedValue().value
    }
}

/// The `GClosureNotify` that releases a `CallbackBox` when GLib drops a signal handler.
package let releaseCallbackBox: GClosureNotify = { data, _ in
    guard let data else { return }
    Unmanaged<AnyObject>.fromOpaque(data).release()
}

/// The `GDestroyNotify` that releases a `CallbackBox` when GLib drops a source.
package let releaseCallbackBoxOnDestroy: GDestroyNotify = { data in
    guard let data else { return }
    Unmanaged<AnyObject>.fromOpaque(data).release()
}

/// Connects a C handler to a GObject signal with a retained box as its user data.
///
/// `handler` must have the signal's exact C signature, its last parameter the user data.
@discardableResult
package func connectSignal<Handler>(_ instance: gpointer, _ signal: String, _ handler: Handler, data: gpointer) -> gulong {
    g_signal_connect_data(instance, signal, unsafeBitCast(handler, to: GCallback.self), data, releaseCallbackBox, GConnectFlags(rawValue: 0))
}
