import Foundation
import RequestHookKit
import TrackerDataKit
import TrackerlessCore
import TrackerlessRuntime

extension RequestHookConfiguration {
    /// The configuration of `runtime` as it is now, for a web process: the current set's
    /// compiled engine (when `blocksRequests`), the tds and privacy configuration by path, the
    /// sites where protection is off (the user allowlist and the site toggles).
    ///
    /// Files the extension must read that exist only in memory (the engine, inputs given as
    /// bytes) are written under `directory`, named by the set's identifier, once, whole (temp
    /// file and rename). A file that cannot be written is reported on standard error and its path
    /// left empty; the extension then says what it could not load.
    public static func current(of runtime: ProtectionRuntime, blocksRequests: Bool, directory: String) -> RequestHookConfiguration {
        let set = runtime.currentSet
        let inputs = runtime.inputs
        func path(of document: InputDocument?, _ name: String) -> String {
            switch document {
            case .file(let path)?: URL(fileURLWithPath: path).standardizedFileURL.path
            case .bytes(let data, _)?: written(directory + "/\(name)-\(set.identifier)", bytes: { data })
            case nil: ""
            }
        }
        var configuration = RequestHookConfiguration(blocksRequests: blocksRequests)
        if blocksRequests { configuration.enginePath = written(directory + "/engine-\(set.identifier).bin") { set.engine.compiled() } }
        if inputs.privacyConfiguration != nil {
            configuration.privacyConfigurationPath = path(of: inputs.privacyConfiguration, "privacy-config")
            configuration.trackerDataPath = path(of: inputs.trackerData, "tds")
        }
        var sites = Set(runtime.sitesWithProtectionOff)
        if let allowlist = inputs.userAllowlist {
            let bytes: [UInt8]?
            switch allowlist {
            case .file(let path): bytes = try? FileIO.read(path: path)
            case .bytes(let data, _): bytes = data
            }
            if let bytes, let parsed = try? UserAllowlist(parsing: bytes) { sites.formUnion(parsed.domains) }
        }
        configuration.sitesWithProtectionOff = sites.sorted()
        return configuration
    }

    /// The directories of the files `runtime`'s configuration names outside `directory`: what
    /// the web processes' sandbox must let them read.
    public static func sandboxPaths(of runtime: ProtectionRuntime) -> [String] {
        let inputs = runtime.inputs
        guard inputs.privacyConfiguration != nil else { return [] }
        return [inputs.trackerData, inputs.privacyConfiguration].compactMap { document in
            guard case .file(let path)? = document else { return nil }
            return URL(fileURLWithPath: path).standardizedFileURL.deletingLastPathComponent().path
        }
    }

    private static func written(_ path: String, bytes: () -> [UInt8]) -> String {
        if FileManager.default.fileExists(atPath: path) { return path }
        do throws(FileError) {
            try? FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try FileIO.writeAtomically(bytes(), to: path)
            return path
        } catch {
            FileHandle.standardError.write(Data("trackerless: the web-process extension's file: \(error)\n".utf8))
            return ""
        }
    }
}
