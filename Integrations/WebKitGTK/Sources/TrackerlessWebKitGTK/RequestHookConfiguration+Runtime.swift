import Foundation
public import RequestHookKit
import TrackerlessCore
public import TrackerlessRuntime

extension RequestHookConfiguration {
    /// The configuration of `runtime` as it is now, for a web process: the current set's
    /// compiled engine (when `blocksRequests`) and its navigation data
    /// (``TrackerlessRuntime/ProtectionSet/navigationData``, what the navigation protections read
    /// of its privacy configuration and blocklist, made by the same build as its rule lists), the
    /// sites where protection is off (the user allowlist and the site toggles). A web process
    /// parses neither tds.json nor the configuration.
    ///
    /// The files are written as one set (TrackerlessCore's `FileSet`) at `directory/set`: a
    /// generation directory named by the files' checksum, complete before the link names it, so a
    /// web process never reads a cut file or one set's engine with another's navigation data. The
    /// same files are not written again; a damaged generation is; the generation before the
    /// current one is kept for a web process still reading it, older ones are removed. A set that
    /// cannot be written is reported on standard error and its paths left empty; the extension
    /// then says what it could not load.
    public static func current(of runtime: ProtectionRuntime, blocksRequests: Bool, directory: String) -> RequestHookConfiguration {
        let set = runtime.currentSet
        let inputs = runtime.inputs
        var configuration = RequestHookConfiguration(blocksRequests: blocksRequests, globalPrivacyControl: inputs.globalPrivacyControl)
        var files: [FileSet.File] = [(navigationName, set.navigationData)]
        if blocksRequests { files.append((engineName, set.engine.compiled())) }
        let generation = written(files, directory: directory)
        configuration.navigationDataPath = generation.map { $0 + "/" + navigationName } ?? ""
        configuration.enginePath = blocksRequests ? generation.map { $0 + "/" + engineName } ?? "" : ""
        configuration.sitesWithProtectionOff = runtime.allSitesWithProtectionOff
        return configuration
    }

    private static let engineName = "engine.bin"
    private static let navigationName = "navigation.json"

    /// The generation directory of `files` written as the set at `directory/set`; nil, said on
    /// standard error, when it cannot be written.
    private static func written(_ files: [FileSet.File], directory: String) -> String? {
        do throws(FileError) {
            try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            return try FileSet.write(files, to: directory + "/set")
        } catch {
            FileHandle.standardError.write(Data("trackerless: the web-process extension's files: \(error)\n".utf8))
            return nil
        }
    }
}
