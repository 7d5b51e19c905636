import Foundation
import Testing
import TrackerDataKit
@testable import UserScripts

/// The generated Sources/UserScripts/Generated/BundledTemplates.swift must hold exactly the repository's
/// JSTemplates/ and Surrogates/ files.
@Suite("Bundled templates")
struct BundledTemplatesTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static let regenerate = "run python3 Scripts/generate-bundled-scripts.py"

    /// The file's text as the generator embeds it (line feeds only, no byte-order mark), or nil.
    static func text(_ relativePath: String) -> String? {
        guard let data = FileManager.default.contents(atPath: packageRoot.appendingPathComponent(relativePath).path) else {
            return nil
        }
        var bytes = [UInt8](data)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        return String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
            .replacingOccurrences(of: "\r", with: "\n")
    }

    @Test("blocking.js and inference.js are the repository's")
    func templates() {
        for (name, bundled) in [("blocking.js", BundledTemplates.blocking), ("inference.js", BundledTemplates.inference)] {
            if let file = Self.text("JSTemplates/" + name) {
                if bundled != file { Issue.record("JSTemplates/\(name) differs from the bundled copy: \(Self.regenerate)") }
            } else {
                #expect(bundled.contains("Stand-in"), "JSTemplates/\(name) is gone: \(Self.regenerate)")
            }
        }
    }

    @Test("The bridges are the repository's")
    func bridges() {
        let bundled = Dictionary(uniqueKeysWithValues: BundledTemplates.bridges.map { ($0.name, $0.source) })
        for bridge in MessageBridge.allCases {
            if bundled[bridge.rawValue] != Self.text("JSTemplates/" + bridge.templatePath) {
                Issue.record("JSTemplates/\(bridge.templatePath) differs from the bundled copy: \(Self.regenerate)")
            }
        }
    }

    @Test("The message queue is the repository's")
    func messageQueue() {
        if BundledTemplates.messageQueue != Self.text("JSTemplates/" + ScriptTemplates.messageQueuePath) {
            Issue.record("JSTemplates/\(ScriptTemplates.messageQueuePath) differs from the bundled copy: \(Self.regenerate)")
        }
    }

    @Test("The surrogates are the repository's")
    func surrogates() throws {
        let directory = Self.packageRoot.appendingPathComponent("Surrogates").path
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasSuffix(".js") }.sorted()
        let repository = try SurrogateLibrary(contentsOf: directory)
        #expect(repository.warnings.isEmpty, "\(repository.warnings)")
        #expect(Surrogates.bundled.surrogates.map(\.name) == names, "Surrogates/ has other files than the bundled copy: \(Self.regenerate)")
        #expect(Surrogates.bundled == repository.surrogates, "Surrogates/ differs from the bundled copy: \(Self.regenerate)")
    }

    @Test("The bundled surrogates all load, without warnings")
    func bundledSurrogates() {
        let library = SurrogateLibrary.bundled
        #expect(library.warnings.isEmpty, "\(library.warnings)")
        #expect(library.surrogates == Surrogates.bundled)
    }

    @Test("The bundled templates render with every bridge, and Node parses the scripts", arguments: MessageBridge.allCases)
    func render(bridge: MessageBridge) throws {
        let renderer = try ScriptRenderer(settings: ScriptSettings(bridge: bridge))
        let trackerData = try TrackerData(parsing: Array(#"{"trackers": {}, "entities": {}, "domains": {}}"#.utf8))
        let scripts = renderer.render(trackerData: trackerData)
        #expect(scripts.blocking.source.contains(scripts.secret.value))
        guard NodeRunner.isAvailable else { try Test.cancel("node not found: the rendered script is not run") }
        for script in [scripts.blocking, scripts.inference] {
            let result = try NodeRunner.run(script.source, arguments: ["--check"])
            #expect(result.status == 0, "\(script.name) with the \(bridge) bridge: \(result.error)")
        }
    }
}
