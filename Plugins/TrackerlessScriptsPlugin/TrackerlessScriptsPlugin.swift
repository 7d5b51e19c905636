import Foundation
import PackagePlugin

/// Renders a target's user scripts and content-blocker rule list at build time.
///
/// For a target that holds a `tds.json` (and optionally `privacy-config.json`, `allowlist.json`,
/// `surrogates.txt` or a `Surrogates/` folder, and `trackerless.json` with options), it declares
/// one build command: `trackerless scripts ... --swift-output TrackerlessGenerated.swift`. The
/// command's inputs are those files, its output the Swift source, which SwiftPM compiles into
/// the target: the internal enum `TrackerlessGenerated` holds the scripts, the rule list and the
/// inputs as string literals. It is a build command, not a prebuild command, so SwiftPM runs it
/// only when an input (or the `trackerless` tool) changed since the last build.
@main
struct TrackerlessScriptsPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        return [
            try Self.renderCommand(
                targetName: target.name, files: target.sourceFiles.map(\.url),
                tool: context.tool(named: "TrackerlessCLI"), workDirectory: context.pluginWorkDirectoryURL)
        ]
    }

    /// The command that renders the inputs found among `files`, a target's files.
    static func renderCommand(targetName: String, files: [URL], tool: PluginContext.Tool, workDirectory: URL) throws -> Command {
        try ScriptInputs(targetName: targetName, files: files)
            .buildCommand(tool: tool.url, workDirectory: workDirectory, targetName: targetName)
    }
}

#if canImport(XcodeProjectPlugin)
import XcodeProjectPlugin

extension TrackerlessScriptsPlugin: XcodeBuildToolPlugin {
    func createBuildCommands(context: XcodePluginContext, target: XcodeTarget) throws -> [Command] {
        [
            try Self.renderCommand(
                targetName: target.displayName, files: target.inputFiles.map(\.url),
                tool: context.tool(named: "TrackerlessCLI"), workDirectory: context.pluginWorkDirectoryURL)
        ]
    }
}
#endif
