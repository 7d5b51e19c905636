import Foundation
import PackagePlugin

/// The files of a target that `trackerless scripts` renders from, found among the target's files
/// by name, and the build command that renders them.
///
/// The target's folder is the one holding its `tds.json` (the shallowest, when several do):
/// - `tds.json`: the Tracker Radar blocklist (required);
/// - `privacy-config.json`: DuckDuckGo's privacy configuration;
/// - `allowlist.json`: the user allowlist, a JSON array of sites where protection is off;
/// - `surrogates.txt` (an index in DuckDuckGo's format) or `Surrogates/` (one `<name>.js` each);
///   without either, the surrogates bundled with Trackerless;
/// - `trackerless.json`: rendering options, e.g. `{"bridge": "android", "blockInScript": true}`
///   (`bridge`, `handler`, `batchInterval`, `blockInScript`, `debug`), read by the command when it
///   runs: SwiftPM keeps a plugin's commands while the target's list of files stays the same, so
///   what the plugin itself read from a file could be stale.
struct ScriptInputs {
    static let trackerDataName = "tds.json"
    static let privacyConfigurationName = "privacy-config.json"
    static let allowlistName = "allowlist.json"
    static let surrogatesIndexName = "surrogates.txt"
    static let surrogatesDirectoryName = "Surrogates"
    static let optionsName = "trackerless.json"
    /// The file the command writes and SwiftPM compiles into the target.
    static let generatedSourceName = "TrackerlessGenerated.swift"

    var trackerData: URL
    var privacyConfiguration: URL?
    var allowlist: URL?
    /// `surrogates.txt` or the `Surrogates` folder.
    var surrogates: URL?
    /// Every file in the `Surrogates` folder: inputs, so that editing one renders again.
    var surrogateFiles: [URL] = []
    var optionsFile: URL?

    /// Finds the inputs among `files`, the target's files.
    ///
    /// - Throws: ``PluginError`` when there is no `tds.json`, or when both `surrogates.txt` and
    ///   `Surrogates/` exist.
    init(targetName: String, files: [URL]) throws(PluginError) {
        let candidates = files.filter { $0.lastPathComponent == Self.trackerDataName }
        guard let trackerData = candidates.min(by: { $0.pathComponents.count < $1.pathComponents.count }) else {
            throw PluginError(
                "target \(targetName) uses TrackerlessScriptsPlugin but has no \(Self.trackerDataName): "
                    + "add the Tracker Radar blocklist to the target's folder")
        }
        self.trackerData = trackerData
        let folder = trackerData.deletingLastPathComponent().standardizedFileURL
        let folderPath = folder.path.hasSuffix("/") ? folder.path : folder.path + "/"
        func file(named name: String) -> URL? {
            files.first { $0.standardizedFileURL.path == folderPath + name }
        }
        privacyConfiguration = file(named: Self.privacyConfigurationName)
        allowlist = file(named: Self.allowlistName)
        let surrogatesPrefix = folderPath + Self.surrogatesDirectoryName + "/"
        surrogateFiles = files.filter { $0.standardizedFileURL.path.hasPrefix(surrogatesPrefix) }
            .sorted { $0.path < $1.path }
        let index = file(named: Self.surrogatesIndexName)
        if let index {
            guard surrogateFiles.isEmpty else {
                throw PluginError(
                    "target \(targetName) has both \(Self.surrogatesIndexName) and \(Self.surrogatesDirectoryName)/: keep one")
            }
            surrogates = index
        } else if !surrogateFiles.isEmpty {
            surrogates = folder.appendingPathComponent(Self.surrogatesDirectoryName)
        }
        optionsFile = file(named: Self.optionsName)
    }

    /// Every file the rendering reads.
    var inputFiles: [URL] {
        [trackerData] + [privacyConfiguration, allowlist, optionsFile].compactMap { $0 }
            + (surrogateFiles.isEmpty ? [surrogates].compactMap { $0 } : surrogateFiles)
    }

    /// The arguments of `trackerless` that render into `outputDirectory` and write `swiftFile`.
    func arguments(outputDirectory: URL, swiftFile: URL) -> [String] {
        var arguments = ["scripts", "--tds", trackerData.path]
        if let privacyConfiguration { arguments += ["--privacy-config", privacyConfiguration.path] }
        if let allowlist { arguments += ["--allowlist", allowlist.path] }
        if let surrogates { arguments += ["--surrogates", surrogates.path] }
        if let optionsFile { arguments += ["--options", optionsFile.path] }
        arguments += ["--output", outputDirectory.path, "--swift-output", swiftFile.path]
        return arguments
    }

    /// The build command: SwiftPM runs it when an input or the tool changed, or the output is missing.
    func buildCommand(tool: URL, workDirectory: URL, targetName: String) -> Command {
        let swiftFile = workDirectory.appendingPathComponent(Self.generatedSourceName)
        return .buildCommand(
            displayName: "Rendering Trackerless scripts for \(targetName)",
            executable: tool,
            arguments: arguments(outputDirectory: workDirectory.appendingPathComponent("scripts"), swiftFile: swiftFile),
            inputFiles: inputFiles,
            outputFiles: [swiftFile])
    }
}

/// A problem with a target's inputs, reported by SwiftPM as the plugin's error.
struct PluginError: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) {
        self.description = description
    }
}
