import Foundation
import Testing
import TrackerDataKit
import TrackerlessCore
@testable import UserScripts

/// `JSTemplates/parts/message-queue.js`: the one message queue both scripts are rendered with,
/// from the bundled templates and from a host's templates directory.
@Suite("Message queue template")
struct MessageQueueTemplateTests {
    static let emptyTrackerData = #"{"trackers": {}, "entities": {}, "domains": {}}"#

    static func render(_ templates: ScriptTemplates = .bundled) throws -> RenderedScripts {
        let trackerData = try TrackerData(parsing: Array(emptyTrackerData.utf8))
        return try ScriptRenderer(templates: templates).render(trackerData: trackerData, secret: .marker)
    }

    /// How many times `part` occurs in `text`.
    static func occurrences(of part: String, in text: String) -> Int {
        text.components(separatedBy: part).count - 1
    }

    /// A templates directory with `files` (path → text), removed after `body`.
    static func withDirectory<T>(_ files: [String: String], _ body: (String) throws -> T) throws -> T {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("trackerless-templates-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        for (path, text) in files {
            let file = directory.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: file)
        }
        return try body(directory.path)
    }

    static let bridge = "function (settings, captured) {\n  return function post(message) { return false; };\n}\n"

    @Test("Both rendered scripts hold the queue's text once, and no queue of their own")
    func oneQueue() throws {
        let scripts = try Self.render()
        let part = ScriptTemplates.bundled.messageQueue.trimmingTrailingWhitespace
        #expect(part.hasPrefix("function (settings, captured, secret, post, options) {"))
        for script in [scripts.blocking, scripts.inference] {
            #expect(Self.occurrences(of: part, in: script.source) == 1, "\(script.name)")
            // The queue's functions are defined in the part only: a template that kept its own
            // copy would define them twice.
            for definition in ["function flush(", "function schedule(", "function enqueue(event)", "function randomId(", "function cutToBytes("] {
                #expect(Self.occurrences(of: definition, in: script.source) == 1, "\(script.name): \(definition)")
                #expect(part.contains(definition), "\(definition)")
            }
            // The part is template text: counted in the template's bytes.
            #expect(script.sizes.template >= part.utf8.count, "\(script.name)")
        }
        #expect(!BundledTemplates.blocking.contains("function flush("))
        #expect(!BundledTemplates.inference.contains("function flush("))
    }

    @Test("A template without $MESSAGE_QUEUE$ is an error naming the placeholder and the template", arguments: TemplateKind.allCases)
    func missingPlaceholder(kind: TemplateKind) throws {
        var templates = ScriptTemplates(
            blocking: "(function () { var d = $TRACKER_DATA$, s = $SURROGATES$, c = $SETTINGS$, k = $SECRET$, b = $BRIDGE$, q = $MESSAGE_QUEUE$; })();",
            inference: "(function () { var c = $SETTINGS$, k = $SECRET$, b = $BRIDGE$, q = $MESSAGE_QUEUE$; })();",
            bridges: [.webkit: Self.bridge], location: "test")
        _ = try ScriptRenderer(templates: templates)
        switch kind {
        case .blocking: templates.blocking = templates.blocking.replacingOccurrences(of: ", q = $MESSAGE_QUEUE$", with: "")
        case .inference: templates.inference = templates.inference.replacingOccurrences(of: ", q = $MESSAGE_QUEUE$", with: "")
        }
        do {
            _ = try ScriptRenderer(templates: templates)
            Issue.record("no error")
        } catch {
            #expect(error == .missingPlaceholder(name: "MESSAGE_QUEUE", template: "test/" + kind.rawValue))
            #expect(error.description == "test/\(kind.rawValue): the template has no $MESSAGE_QUEUE$ placeholder")
        }
    }

    @Test("A templates directory without parts/ renders with the bundled queue; with parts/message-queue.js, with its own")
    func templatesDirectory() throws {
        let blocking = "(function () { var d = $TRACKER_DATA$, s = $SURROGATES$, c = $SETTINGS$, k = $SECRET$, b = $BRIDGE$, q = $MESSAGE_QUEUE$; })();\n"
        let inference = "(function () { var c = $SETTINGS$, k = $SECRET$, b = $BRIDGE$, q = $MESSAGE_QUEUE$; })();\n"
        let files = ["blocking.js": blocking, "inference.js": inference, "bridges/webkit.js": Self.bridge]
        let bundledQueue = try Self.withDirectory(files) { directory in try ScriptTemplates(directory: directory) }
        #expect(bundledQueue.messageQueue == ScriptTemplates.bundled.messageQueue)
        let withBundled = try Self.render(bundledQueue)
        #expect(withBundled.inference.source.contains(ScriptTemplates.bundled.messageQueue.trimmingTrailingWhitespace))

        let ownQueue = "function (settings, captured, secret, post, options) {\n  // the host's own queue\n  return null;\n}\n"
        var withPart = files
        withPart["parts/message-queue.js"] = ownQueue
        let own = try Self.withDirectory(withPart) { directory in try ScriptTemplates(directory: directory) }
        #expect(own.messageQueue == ownQueue)
        let scripts = try Self.render(own)
        for script in [scripts.blocking, scripts.inference] {
            #expect(script.source.contains("q = function (settings, captured, secret, post, options) {\n  // the host's own queue\n  return null;\n};"))
            #expect(!script.source.contains("function flush("))
        }
    }

    @Test("A queue that would break out of a script element is refused, naming parts/message-queue.js and the line")
    func unsafeQueue() {
        let templates = ScriptTemplates(
            blocking: ScriptTemplates.bundled.blocking, inference: ScriptTemplates.bundled.inference,
            bridges: ScriptTemplates.bundled.bridges,
            messageQueue: "function () {\n  return '</script>';\n}", location: "test")
        #expect(throws: ScriptRenderError.unsafeCode(
            file: "test/parts/message-queue.js", line: 2, reason: "contains \"</script\", which would end an inline script element")
        ) {
            try ScriptRenderer(templates: templates)
        }
        var unbalanced = templates
        unbalanced.messageQueue = "function () {\n  return 1; }); (function () {\n}"
        #expect(throws: ScriptRenderError.self) { try ScriptRenderer(templates: unbalanced) }
    }
}
