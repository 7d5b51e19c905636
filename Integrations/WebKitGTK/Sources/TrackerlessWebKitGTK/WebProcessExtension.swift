import CWebKitGTK
import Foundation
public import RequestHookKit

/// Loads the Trackerless web-process extension (`libTrackerlessWebProcessExtension.so`) in every
/// web process of a web context (WebKit's default one unless told otherwise), with a ``RequestHookKit/RequestHookConfiguration``
/// made afresh for each new process.
///
/// WebKitGTK 6.0 runs web processes in a sandbox and swaps processes across sites:
/// - the library is copied into a directory of its own (WebKit opens every `.so` of the
///   directory), and that directory, the Swift runtime's and any other the host names are
///   added to the sandbox, read-only, before the first web process
///   starts (an extension outside the sandbox is silently ignored; one without the Swift
///   runtime fails to load, ../shared/research/webkitgtk-host.md);
/// - each process gets the configuration of the moment it starts (the current protection set's
///   engine and navigation data, the current site toggles); ``broadcast(_:)`` sends a new one to the processes
///   already running.
///
/// Call ``install(libraryPath:directory:sandboxPaths:configuration:)`` on the main context's
/// thread before the first web view loads anything.
public enum WebProcessExtension {
    /// The file name of the extension library, as SwiftPM builds it.
    public static let libraryName = "libTrackerlessWebProcessExtension.so"
    /// The message that carries a new configuration to running processes (parameters of type
    /// ``RequestHookKit/RequestHookConfiguration/variantType``).
    public static let configurationMessage = "trackerless.configuration"

    /// Why the extension could not be installed.
    public struct InstallError: Error, CustomStringConvertible {
        public let description: String
    }

    /// Copies the library at `libraryPath` into `directory/lib` (when it changed), opens the
    /// sandbox to it, to the Swift runtime and to `sandboxPaths`, and hands WebKit
    /// `configuration()` for each web process it starts.
    public static func install(
        libraryPath: String, directory: String, sandboxPaths: [String], context: WebContext = .default,
        configuration: @escaping () -> RequestHookConfiguration
    ) throws(InstallError) {
        let libraryDirectory = directory + "/lib"
        if let failure = copyLibrary(libraryPath, into: libraryDirectory) {
            throw InstallError(description: "\(libraryPath): the web-process extension: \(failure)")
        }
        var paths = [directory] + sandboxPaths
        if let runtime = swiftRuntimeDirectory() { paths.append(runtime) }
        addToSandbox(paths, context: context)
        connectInitialization(libraryDirectory: libraryDirectory, context: context, configuration: configuration)
    }

    private static func addToSandbox(_ paths: [String], context: WebContext) {
        for path in Set(paths) where !path.isEmpty { webkit_web_context_add_path_to_sandbox(context.pointer, path, 1) }
    }

    private static func connectInitialization(
        libraryDirectory: String, context: WebContext, configuration: @escaping () -> RequestHookConfiguration
    ) {
        let initialize: @convention(c) (OpaquePointer?, gpointer?) -> Void = { context, data in
            let setup = CallbackBox<Initialization>.peek(data)
            webkit_web_context_set_web_process_extensions_directory(context, setup.directory)
            webkit_web_context_set_web_process_extensions_initialization_user_data(context, WebProcessExtension.variant(setup.configuration()))
        }
        let setup = Initialization(directory: libraryDirectory, configuration: configuration)
        connectSignal(
            UnsafeMutableRawPointer(context.pointer), "initialize-web-process-extensions", initialize,
            data: CallbackBox(setup).retained())
    }

    /// Copies the library into `directory` when the copy there is missing or older, through a
    /// temporary file and a rename; what failed, or nil.
    private static func copyLibrary(_ libraryPath: String, into directory: String) -> String? {
        do {
            try copyLibraryThrowing(libraryPath, into: directory)
            return nil
        } catch {
            return error.localizedDescription
        }
    }

    private static func copyLibraryThrowing(_ libraryPath: String, into directory: String) throws {
        let files = FileManager.default
        let installed = directory + "/" + libraryName
        try files.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let source = try files.attributesOfItem(atPath: libraryPath)
        let current = try? files.attributesOfItem(atPath: installed)
        let sourceDate = source[.modificationDate] as? Date ?? .distantFuture
        if let current, current[.size] as? Int == source[.size] as? Int, let date = current[.modificationDate] as? Date, date >= sourceDate {
            return
        }
        let temporary = installed + ".tmp"
        try? files.removeItem(atPath: temporary)
        try files.copyItem(atPath: libraryPath, toPath: temporary)
        guard rename(temporary, installed) == 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: installed]) }
    }

    /// Sends `configuration` to the extension of every running web process (after an update or
    /// a site toggle); processes started later get it from the `configuration` closure.
    public static func broadcast(_ configuration: RequestHookConfiguration, context: WebContext = .default) {
        let message = webkit_user_message_new(configurationMessage, variant(configuration))
        webkit_web_context_send_message_to_all_extensions(context.pointer, message)
    }

    /// The configuration as a GVariant of type ``RequestHookKit/RequestHookConfiguration/variantType`` (floating).
    static func variant(_ configuration: RequestHookConfiguration) -> OpaquePointer? {
        var sites = configuration.sitesWithProtectionOff.map { strdup($0) }
        defer { for site in sites { free(site) } }
        let list = sites.withUnsafeMutableBufferPointer { buffer in
            buffer.withMemoryRebound(to: UnsafePointer<gchar>?.self) { g_variant_new_strv($0.baseAddress, gssize($0.count)) }
        }
        var children: [OpaquePointer?] = [
            g_variant_new_boolean(configuration.blocksRequests ? 1 : 0), g_variant_new_string(configuration.enginePath),
            g_variant_new_string(configuration.navigationDataPath), list,
            g_variant_new_boolean(configuration.globalPrivacyControl ? 1 : 0),
        ]
        return g_variant_new_tuple(&children, gsize(children.count))
    }

    /// The directory of the Swift runtime this process loaded (the extension needs the same),
    /// read from /proc/self/maps (dladdr needs _GNU_SOURCE, which Glibc's module map lacks).
    static func swiftRuntimeDirectory() -> String? {
        // Read to the end: procfs gives its files a size of 0.
        guard let handle = FileHandle(forReadingAtPath: "/proc/self/maps"),
            let maps = String(data: handle.readDataToEndOfFile(), encoding: .utf8)
        else { return nil }
        for line in maps.split(separator: "\n") where line.hasSuffix("/libswiftCore.so") {
            guard let slash = line.firstIndex(of: "/") else { continue }
            return (String(line[slash...]) as NSString).deletingLastPathComponent
        }
        return nil
    }

    /// What "initialize-web-process-extensions" hands WebKit.
    private final class Initialization {
        let directory: String
        let configuration: () -> RequestHookConfiguration
        init(directory: String, configuration: @escaping () -> RequestHookConfiguration) {
            self.directory = directory
            self.configuration = configuration
        }
    }
}
