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
    /// bytes) are written as one set (TrackerlessCore's `FileSet`) at `directory/set`: a
    /// generation directory named by the files' checksum, complete before the link names it, so a
    /// web process never reads a cut file or one set's engine with another's inputs. The same
    /// files are not written again; a damaged generation is; the generation before the current
    /// one is kept for a web process still reading it, older ones are removed. A set that cannot
    /// be written is reported on standard error and its paths left empty; the extension then says
    /// what it could not load.
    public static func current(of runtime: ProtectionRuntime, blocksRequests: Bool, directory: String) -> RequestHookConfiguration {
        let set = runtime.currentSet
        let inputs = runtime.inputs
        var configuration = RequestHookConfiguration(blocksRequests: blocksRequests, globalPrivacyControl: inputs.globalPrivacyControl)
        var files: [FileSet.File] = []
        if blocksRequests { files.append((engineName, set.engine.compiled())) }
        var paths: [String: String] = [:]
        if inputs.privacyConfiguration != nil {
            for (document, name) in [(inputs.privacyConfiguration, "privacy-config.json"), (inputs.trackerData, "tds.json")] {
                switch document {
                case .file(let path)?: paths[name] = URL(fileURLWithPath: path).standardizedFileURL.path
                case .bytes(let data, _)?: files.append((name, data))
                case nil: paths[name] = ""
                }
            }
        }
        if !files.isEmpty {
            let generation = written(files, directory: directory)
            for file in files { paths[file.name] = generation.map { $0 + "/" + file.name } ?? "" }
        }
        configuration.enginePath = paths[engineName] ?? ""
        configuration.privacyConfigurationPath = paths["privacy-config.json"] ?? ""
        configuration.trackerDataPath = paths["tds.json"] ?? ""
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

    private static let engineName = "engine.bin"

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
