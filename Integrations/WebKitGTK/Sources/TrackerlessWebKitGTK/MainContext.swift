import CWebKitGTK

/// Work handed to the GLib main context from any thread.
///
/// WebKitGTK must be called on the thread that runs the main context; the runtime builds
/// protection sets on other threads and hands the result back through `post(_:)`.
public enum MainContext {
    /// Runs `work` once on the GLib main context (from an idle source, in the order posted).
    public static func post(_ work: @escaping @Sendable () -> Void) {
        let box = CallbackBox(work)
        let callback: GSourceFunc = { data in
            CallbackBox<@Sendable () -> Void>.peek(data)()
            return 0  // G_SOURCE_REMOVE
        }
        g_idle_add_full(G_PRIORITY_DEFAULT, callback, box.retained(), releaseCallbackBoxOnDestroy)
    }
}
