import CWebKitWebProcessExtension
import Glibc
import RequestHookKit

/// The symbol WebKitGTK 6.0 looks up in each `.so` of the web-process extensions directory, once
/// per web process, with the user data the UI process set in "initialize-web-process-extensions"
/// (a ``RequestHookKit/RequestHookConfiguration``).
///
/// A configuration that cannot be read or loaded is reported on standard error and nothing is
/// connected: the process then blocks nothing and changes no header, and the UI process, which
/// counts the loads it sees, shows them allowed.
@_cdecl("webkit_web_process_extension_initialize_with_user_data")
public func webkitWebProcessExtensionInitialize(_ extensionObject: OpaquePointer?, _ userData: OpaquePointer?) {
    guard let extensionObject else { return }
    let hook: RequestHook
    do throws(RequestHookError) {
        guard let configuration = UserData.configuration(userData) else {
            return report("the initialization user data is not a \(RequestHookConfiguration.variantType)")
        }
        hook = try RequestHook(configuration: configuration)
    } catch {
        return report(error.description)
    }
    let holder = HookHolder(hook: hook)
    // The process keeps its extension for its whole life: the holder is never released.
    let data = Unmanaged.passRetained(holder).toOpaque()
    let pageCreated: @convention(c) (OpaquePointer?, OpaquePointer?, gpointer?) -> Void = { _, page, data in
        guard let page else { return }
        PageHandler(holder: Unmanaged<HookHolder>.fromOpaque(data!).takeUnretainedValue()).connect(to: page)
    }
    g_signal_connect_data(
        gpointer(extensionObject), "page-created", unsafeBitCast(pageCreated, to: GCallback.self), data, nil,
        GConnectFlags(rawValue: 0))
    // A new configuration from the UI process (an update, a site toggle) replaces the hook.
    let messageReceived: @convention(c) (OpaquePointer?, OpaquePointer?, gpointer?) -> gboolean = { _, message, data in
        guard let message, let name = webkit_user_message_get_name(message),
            String(cString: name) == HookHolder.configurationMessage
        else { return 0 }
        let holder = Unmanaged<HookHolder>.fromOpaque(data!).takeUnretainedValue()
        guard let configuration = UserData.configuration(webkit_user_message_get_parameters(message)) else {
            report("a \(HookHolder.configurationMessage) message that is not a \(RequestHookConfiguration.variantType)")
            return 1
        }
        do throws(RequestHookError) {
            holder.hook = try RequestHook(configuration: configuration)
        } catch {
            report(error.description)
        }
        return 1
    }
    g_signal_connect_data(
        gpointer(extensionObject), "user-message-received", unsafeBitCast(messageReceived, to: GCallback.self), data, nil,
        GConnectFlags(rawValue: 0))
}

/// Writes a line on the web process's standard error (the browser's, which started it).
func report(_ message: String) {
    let line = Array("trackerless web-process extension: \(message)\n".utf8)
    _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
}
