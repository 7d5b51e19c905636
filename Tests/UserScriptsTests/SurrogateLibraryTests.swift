import Foundation
import Testing
import TrackerDataKit
import TrackerlessTestSupport
import UserScripts

@Suite("Surrogate library")
struct SurrogateLibraryTests {
    /// A fresh directory holding `files`, removed by the caller.
    static func directory(_ files: [String: [UInt8]]) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("surrogates-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        for (name, bytes) in files {
            try Data(bytes).write(to: URL(fileURLWithPath: path + "/" + name))
        }
        return path
    }

    @Test("A directory of <name>.js files with header lines")
    func scriptDirectory() throws {
        let path = try Self.directory([
            "analytics.js": Array("// google-analytics.com/analytics.js application/javascript\n(function () {\n  window.ga = function () {};\n})();\n".utf8),
            "noop.js": Array("// example.com/noop.js application/javascript\n(function () {})();".utf8),
            "README.md": Array("not a surrogate".utf8),
        ])
        defer { try? FileManager.default.removeItem(atPath: path) }
        let library = try SurrogateLibrary(contentsOf: path)
        #expect(library.warnings.isEmpty)
        #expect(library.surrogates.surrogates.map(\.name) == ["analytics.js", "noop.js"])
        let analytics = try #require(library.surrogates["analytics.js"])
        #expect(analytics.path == "google-analytics.com/analytics.js")
        #expect(analytics.contentType == "application/javascript")
        #expect(analytics.source == "(function () {\n  window.ga = function () {};\n})();")
    }

    @Test("Files without a header, with a header naming another file, not UTF-8 or unsafe are skipped with file and line")
    func badScriptFiles() throws {
        let path = try Self.directory([
            "a.js": Array("(function () {})();\n".utf8),
            "b.js": Array("// example.com/other.js application/javascript\n(function () {})();\n".utf8),
            "c.js": Array("// example.com/c.js application/javascript\nvar x = 1;\nvar y = '".utf8) + [0xFF, 0xFE] + Array("';\n".utf8),
            "d.js": Array("// example.com/d.js application/javascript\nvar x = 1;\nvar y = '</Script>';\n".utf8),
            "e.js": Array("// example.com/e.js application/javascript\nvar x = '\u{2029}';\n".utf8),
            "ok.js": Array("// example.com/ok.js application/javascript\nvar ok = 1;\n".utf8),
        ])
        defer { try? FileManager.default.removeItem(atPath: path) }
        let library = try SurrogateLibrary(contentsOf: path)
        #expect(library.surrogates.surrogates.map(\.name) == ["ok.js"])
        let places = library.warnings.map { "\($0.file.map { URL(fileURLWithPath: $0).lastPathComponent } ?? "-"):\($0.line ?? 0)" }
        #expect(places == ["a.js:1", "b.js:1", "c.js:3", "d.js:3", "e.js:2"])
        #expect(library.warnings[0].message.contains("// <domain>/<name> <content type>"))
        #expect(library.warnings[2].message.contains("UTF-8"))
        #expect(library.warnings[3].message.contains("</script"))
        #expect(library.warnings[4].message.contains("U+2029"))
    }

    static let index = """
        # A comment
        surrogates.test/tracker application/javascript
        (function() {window.surrogate1=true})();

        not a header line
        (function() {})();

        something.else.com/script.js application/javascript
        var a = 1;
        var b = '</script>';

        example.com/fine.js application/javascript
        (function() {window.fine=true})();
        """

    @Test("A surrogates.txt file: malformed blocks and unsafe sources are skipped with file and line")
    func indexFile() throws {
        let library = SurrogateLibrary(index: Array(Self.index.utf8), file: "surrogates.txt")
        #expect(library.surrogates.surrogates.map(\.name) == ["tracker", "fine.js"])
        #expect(library.warnings.map(\.description) == [
            "surrogates.txt: line 5: expected \"<domain>/<name> <content type>\" to start a surrogate; block skipped",
            "surrogates.txt: line 10: contains \"</script\", which would end an inline script element; surrogate script.js skipped",
        ])
    }

    @Test("A surrogates.txt line that is not UTF-8 drops its surrogate, naming the line")
    func indexNotUTF8() {
        let bytes = Array("a.example/a.js application/javascript\nvar a = 1;\n\nb.example/b.js application/javascript\nvar b = '".utf8)
            + [0xC3] + Array("';\n".utf8)
        let library = SurrogateLibrary(index: bytes, file: "s.txt")
        #expect(library.surrogates.surrogates.map(\.name) == ["a.js"])
        #expect(library.warnings.map(\.description) == ["s.txt: line 5: not valid UTF-8; surrogate b.js skipped"])
    }

    @Test("The index reads back as the same surrogates (blank lines of a source left out)")
    func indexRoundTrip() throws {
        let library = SurrogateLibrary(Surrogates([
            .init(name: "a.js", path: "a.example/a.js", contentType: "application/javascript", source: "var a = 1;\n\n  \nvar b = 2;"),
            .init(name: "noop.js", path: "x.example/noop.js", contentType: "application/javascript", source: "(function () {})();"),
        ]))
        let index = library.index
        #expect(index.hasPrefix("# "))
        #expect(index.contains("a.example/a.js application/javascript\nvar a = 1;\nvar b = 2;\n\nx.example/noop.js application/javascript\n"))
        let reread = SurrogateLibrary(index: Array(index.utf8), file: "surrogates.txt")
        #expect(reread.warnings.isEmpty)
        #expect(reread.surrogates.surrogates.map(\.name) == ["a.js", "noop.js"])
        #expect(reread.surrogates["a.js"]?.source == "var a = 1;\nvar b = 2;")
        // The parser of the tracker data reads it the same way.
        #expect(Surrogates(parsing: index).surrogates == reread.surrogates.surrogates)
    }

    static let referenceSurrogates = "privacy-reference-tests/tracker-radar-tests/TR-domain-matching/surrogates.txt"

    @Test("The reference surrogates.txt reads without warnings", .enabled(if: SharedData.shouldRun(referenceSurrogates), SharedData.skipMessage))
    func referenceIndex() throws {
        let library = try SurrogateLibrary(contentsOf: SharedData.path(Self.referenceSurrogates))
        #expect(library.warnings.isEmpty)
        #expect(library.surrogates.surrogates.map(\.name) == ["tracker", "script.js"])
    }

    @Test("A missing path is an error naming it")
    func missing() {
        #expect(throws: ScriptRenderError.self) { try SurrogateLibrary(contentsOf: "/nonexistent/surrogates") }
    }
}
