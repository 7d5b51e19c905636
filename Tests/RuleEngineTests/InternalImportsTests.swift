import Foundation
import Testing
import TrackerlessCore
import TrackerlessTestSupport

/// Imports are not interface: every Swift target of the repository's packages builds with the
/// upcoming feature `InternalImportsByDefault`, so that Foundation and each dependency stay out of
/// a module's public interface unless a declaration says `public import` (or `package import`).
/// The targets are read from `swift package dump-package`, which evaluates each manifest as
/// SwiftPM does, so a setting added in a loop counts and a target the loop leaves out does not.
@Suite struct InternalImportsTests {
    /// The repository: Tests/RuleEngineTests/InternalImportsTests.swift, three up.
    static let repositoryRoot = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `swift` from PATH.
    static let swiftExecutable = ChildProcess.executable(named: "swift")

    /// Target types that take no Swift settings (PackageDescription has no `swiftSettings` for them).
    static let settingless: Set<String> = ["plugin", "system", "binary"]

    @Test(
        .enabled(if: swiftExecutable != nil, "`swift` is not on PATH: the manifests cannot be evaluated"),
        arguments: [".", "Integrations/WebKitGTK", "Examples/HostApp", "Fuzz"])
    func everySwiftTargetImportsInternallyByDefault(package: String) throws {
        let fileManager = FileManager.default
        let directory = fileManager.temporaryDirectory.appendingPathComponent("trackerless-manifest-\(UUID().uuidString)")
        try fileManager.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? fileManager.removeItem(at: directory) }
        // A scratch path of its own: the package's .build is locked by the `swift test` running this.
        let packagePath = Self.repositoryRoot.appendingPathComponent(package).path
        let manifestName = package == "." ? "Package.swift" : package + "/Package.swift"
        let arguments = [
            "package", "dump-package", "--package-path", packagePath,
            "--scratch-path", directory.appendingPathComponent("build").path,
        ]
        let dump = try ChildProcess.run(try #require(Self.swiftExecutable), arguments, logs: directory)
        try #require(dump.status == 0, "swift package dump-package failed (\(dump.status)):\n\(dump.output)")
        // SwiftPM's notes go to the same log, before the JSON.
        let json = try #require(dump.output.firstIndex(of: "{").map { dump.output[$0...] }, "no JSON in:\n\(dump.output)")
        guard case .object(let manifest) = try JSONParser.parse(String(json)), case .array(let targets)? = manifest["targets"] else {
            Issue.record("\(manifestName): dump-package wrote no targets")
            return
        }
        var checked = 0
        var lacking: [String] = []
        for case .object(let target) in targets {
            guard case .string(let name)? = target["name"], case .string(let type)? = target["type"] else { continue }
            guard !Self.settingless.contains(type) else { continue }
            checked += 1
            if !Self.enablesInternalImports(target) { lacking.append(name) }
        }
        #expect(checked > 0, "\(manifestName): no Swift target found")
        #expect(
            lacking.isEmpty,
            "\(manifestName): \(lacking.joined(separator: ", ")) lack .enableUpcomingFeature(\"InternalImportsByDefault\")")
    }

    /// Whether `target` has the setting `.enableUpcomingFeature("InternalImportsByDefault")` on
    /// every platform and configuration (no condition).
    static func enablesInternalImports(_ target: JSONObject) -> Bool {
        guard case .array(let settings)? = target["settings"] else { return false }
        return settings.contains { setting in
            guard case .object(let setting) = setting, case .object(let kind)? = setting["kind"],
                case .object(let feature)? = kind["enableUpcomingFeature"]
            else { return false }
            let unconditional = setting["condition"] == nil || setting["condition"] == .null
            return feature["_0"] == .string("InternalImportsByDefault") && setting["tool"] == .string("swift") && unconditional
        }
    }
}
