import Foundation
import RequestHookKit
import Testing

/// The content filter's console message of a blocked load in the WebKitGTKs other than this
/// machine's: 2.44 and 2.54, in the Debian roots of `.ci/install-webkit-roots.sh`, through
/// `Tests/Support/console_message_probe.py` (GI WebKit2 and a web extension in C,
/// `console_probe_extension.c`, built here with `cc`: the roots hold WebKitGTK 4.0/4.1 and no
/// Swift, so `TrackerlessWebProcessExtension`, built for 6.0, cannot run there; the probe
/// checks what it relies on). In each root: a blocked image's message comes with the source
/// `OTHER` and the level `INFO`, in the words ``RequestHookKit/ContentBlockerMessage`` reads,
/// naming the page and the blocked URL; a page's `console.info` of the same words comes as
/// `CONSOLE_API`; an ephemeral web context's pages send the extension no message at all.
@Suite(
    "The content blocker's console message in WebKitGTK 2.44 and 2.54", .serialized,
    .enabled(if: WebKitRoots.canRun && FileManager.default.isExecutableFile(atPath: "/usr/bin/cc"), WebKitRoots.skipMessage))
struct ContentBlockerMessageInWebKitRootsTests {
    static let support = BrowserProcess.packageRoot.appendingPathComponent("Tests/Support")
    /// `WebKitConsoleMessageSource` and `WebKitConsoleMessageLevel` values (the same in the 4.x
    /// and 6.0 APIs).
    static let sourceConsoleAPI = 2, sourceOther = 4, levelInfo = 0

    /// One console message the extension saw.
    struct Message: Equatable {
        var source: Int
        var level: Int
        var pageURL: String
        var text: String
    }

    /// The probe in the root of `version`: its WebKit version, the URL it blocked and the
    /// console messages its extension saw.
    static func probe(_ version: String, ephemeral: Bool) throws -> (version: String, blocked: String, messages: [Message]) {
        let directory = try BrowserProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let library = directory.appendingPathComponent("lib")
        try FileManager.default.createDirectory(at: library, withIntermediateDirectories: true)
        let compile = Process()
        compile.executableURL = URL(fileURLWithPath: "/usr/bin/cc")
        compile.arguments = [
            "-shared", "-fPIC", "-O1", "-o", library.appendingPathComponent("console_probe_extension.so").path,
            support.appendingPathComponent("console_probe_extension.c").path,
        ]
        try compile.run()
        compile.waitUntilExit()
        try #require(compile.terminationStatus == 0, "cc console_probe_extension.c: exit \(compile.terminationStatus)")

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [
            WebKitRoots.runner.path, WebKitRoots.root(version).path, "/usr/bin/python3",
            support.appendingPathComponent("console_message_probe.py").path, library.path,
        ] + (ephemeral ? ["ephemeral"] : [])
        let output = Pipe(), errorFile = directory.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        process.standardOutput = output
        process.standardError = try FileHandle(forWritingTo: errorFile)
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let line = try #require(String(decoding: data, as: UTF8.self).split(separator: "\n").last { $0.hasPrefix("{") },
                                "the probe printed nothing in \(WebKitRoots.root(version).path) (exit \(process.terminationStatus))")
        let result = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String])
        let prefix = "trackerless-console-probe "
        let messages = try String(contentsOf: errorFile, encoding: .utf8).split(separator: "\n").filter { $0.hasPrefix(prefix) }
            .map { line -> Message in
                let fields = line.dropFirst(prefix.count).split(separator: " ", maxSplits: 3, omittingEmptySubsequences: false).map(String.init)
                return Message(source: Int(fields[0]) ?? -1, level: Int(fields[1]) ?? -1, pageURL: fields[2], text: fields.count > 3 ? fields[3] : "")
            }
        return (result["version"] ?? "", result["blocked"] ?? "", messages)
    }

    @Test("a blocked load's message: source OTHER, level INFO, WebKit's words naming the page and the URL; a page's own words come as the console API's", arguments: WebKitRoots.versions)
    func persistent(version: String) throws {
        let run = try Self.probe(version, ephemeral: false)
        #expect(run.version.hasPrefix(version + "."), "\(run.version)")
        let fromBlocker = run.messages.filter { $0.source == Self.sourceOther }
        #expect(fromBlocker.count == 1, "\(version): \(run.messages)")
        for message in fromBlocker {
            #expect(message.level == Self.levelInfo, "\(version): \(message)")
            let read = ContentBlockerMessage(text: message.text, pageURL: message.pageURL)
            #expect(read?.url == run.blocked && read?.mainDocumentURL == "http://localhost/", "\(version): \(message.text)")
        }
        let forged = run.messages.filter { $0.text.hasSuffix("/forged.gif") }
        #expect(forged.count == 1 && forged.allSatisfy { $0.source == Self.sourceConsoleAPI }, "\(version): \(run.messages)")
    }

    @Test("an ephemeral web context's pages send the extension no console message", arguments: WebKitRoots.versions)
    func ephemeral(version: String) throws {
        let run = try Self.probe(version, ephemeral: true)
        #expect(run.version.hasPrefix(version + "."), "\(run.version)")
        #expect(run.messages.isEmpty, "\(version): \(run.messages)")
    }
}
