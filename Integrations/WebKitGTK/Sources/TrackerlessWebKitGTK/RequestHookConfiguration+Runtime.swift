import Foundation
public import RequestHookKit
import TrackerDataKit
import TrackerlessCore
public import TrackerlessRuntime

extension RequestHookConfiguration {
    /// The configuration of `runtime` as it is now, for a web process: the current set's
    /// compiled engine (when `blocksRequests`), the tds and privacy configuration by path, the
    /// sites where protection is off (the user allowlist and the site toggles).
    ///
    /// Files the extension must read that exist only in memory (the engine, inputs given as
    /// bytes) are written under `directory`, named by the set's identifier, once, whole (temp
    /// file and rename); those of earlier sets are removed. A file that cannot be written is reported on standard error and its path
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
        var configuration = RequestHookConfiguration(blocksRequests: blocksRequests, globalPrivacyControl: inputs.globalPrivacyControl)
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

    /// Writes `path` (`<directory>/<name>-<set identifier>[.bin]`) unless it holds exactly these
    /// bytes already, and removes the files of earlier sets with the same name: a web process
    /// reads its files once, at its start or when a new configuration arrives. A file there that
    /// was cut or altered (a crash, a full disk, a backup tool) is written again, never reused.
    private static func written(_ path: String, bytes makeBytes: () -> [UInt8]) -> String {
        let files = FileManager.default
        let bytes = makeBytes()
        if let existing = try? FileIO.read(path: path), existing == bytes { return path }
        let directory = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        let prefix = name.prefix { $0 != "-" } + "-"
        do throws(FileError) {
            try? files.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try FileIO.writeAtomically(bytes, to: path)
            for other in (try? files.contentsOfDirectory(atPath: directory)) ?? [] where other != name && other.hasPrefix(prefix) {
                try? files.removeItem(atPath: directory + "/" + other)
            }
            return path
        } catch {
            FileHandle.standardError.write(Data("trackerless: the web-process extension's file: \(error)\n".utf8))
            return ""
        }
    }
}
