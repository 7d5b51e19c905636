import CWebKitGTK

/// What a web view runs besides the page: content filters, user scripts and script-message
/// handlers (`WebKitUserContentManager`).
///
/// A web view's manager is fixed when the view is created; filters, scripts and handlers can be
/// added and removed while it lives, and apply from the next load. Every call must come from the
/// thread that runs the GLib main context; handlers run there.
public final class UserContent {
    let pointer: OpaquePointer

    /// A new, empty manager, to create a web view with.
    public init() { pointer = webkit_user_content_manager_new() }

    deinit { g_object_unref(UnsafeMutableRawPointer(pointer)) }

    /// Applies a compiled list to every load from now on.
    public func add(_ filter: ContentFilter) { webkit_user_content_manager_add_filter(pointer, filter.pointer) }

    /// Stops applying the list with this identifier.
    public func removeFilter(identifier: String) { webkit_user_content_manager_remove_filter_by_id(pointer, identifier) }

    /// Stops applying every list.
    public func removeAllFilters() { webkit_user_content_manager_remove_all_filters(pointer) }

    /// Runs `source` at document start in every frame, in `world` (nil: the page's own world).
    public func addScript(_ source: String, world: String?) {
        let script: OpaquePointer?
        if let world {
            script = webkit_user_script_new_for_world(
                source, WEBKIT_USER_CONTENT_INJECT_ALL_FRAMES, WEBKIT_USER_SCRIPT_INJECT_AT_DOCUMENT_START, world, nil, nil)
        } else {
            script = webkit_user_script_new(
                source, WEBKIT_USER_CONTENT_INJECT_ALL_FRAMES, WEBKIT_USER_SCRIPT_INJECT_AT_DOCUMENT_START, nil, nil)
        }
        guard let script else { return }
        webkit_user_content_manager_add_script(pointer, script)
        webkit_user_script_unref(script)
    }

    /// Removes every user script.
    public func removeAllScripts() { webkit_user_content_manager_remove_all_scripts(pointer) }

    /// Calls `handler` with the JSON text of each value a script posts with
    /// `window.webkit.messageHandlers.<name>.postMessage(value)` in any of `worlds` (nil: the
    /// page's own world). False when the name is already registered in one of them.
    ///
    /// WebKitGTK emits one `script-message-received::<name>` signal per message whatever the world
    /// it came from (measured with 2.50.6: a handler connected for the page world also receives the
    /// isolated world's messages), so a name is connected once and registered in every world;
    /// which world posted is not known here, and the messages' secret is what tells them apart.
    @discardableResult
    public func registerMessageHandler(name: String, worlds: [String?], handler: @escaping (String) -> Void) -> Bool {
        let received: @convention(c) (OpaquePointer?, OpaquePointer?, gpointer?) -> Void = { _, value, data in
            guard let value, let json = jsc_value_to_json(value, 0) else { return }
            let text = String(cString: json)
            g_free(json)
            CallbackBox<(String) -> Void>.peek(data)(text)
        }
        connectSignal(UnsafeMutableRawPointer(pointer), "script-message-received::\(name)", received, data: CallbackBox(handler).retained())
        var registered = true
        for world in worlds where webkit_user_content_manager_register_script_message_handler(pointer, name, world) == 0 {
            registered = false
        }
        return registered
    }
}

extension UserContent {
    /// The manager, for the probe (to be replaced by the web view wrapper).
    public var pointerForProbe: UnsafeMutableRawPointer { UnsafeMutableRawPointer(pointer) }
}
