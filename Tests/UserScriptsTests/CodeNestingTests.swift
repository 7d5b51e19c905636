import Foundation
import Testing
import TrackerDataKit
import TrackerlessTestSupport
@testable import UserScripts

/// `CodeNesting`: a surrogate's source stays inside the function the renderer wraps it in.
@Suite("Code nesting of surrogates")
struct CodeNestingTests {
    static func problem(_ code: String) -> UnsafeCode.Problem? { CodeNesting.firstProblem(in: Array(code.utf8)) }

    @Test("The two escapes (a sibling surrogate opened, the wrapper closed) are refused with their line")
    func escapes() throws {
        let sibling = try #require(Self.problem("window.a = 1;\n}, \"z.js\": function () {\n  alert(1);"))
        #expect(sibling.line == 2)
        #expect(sibling.reason.contains("\"}\" closes a bracket this code did not open"))
        let unparsable = try #require(Self.problem("})();alert(1);(function(){"))
        #expect(unparsable.line == 1)
        #expect(unparsable.reason.contains("\"}\" closes"))
    }

    @Test("Balanced code is accepted, with brackets in strings, templates, comments and regular expressions")
    func accepted() {
        let sources = [
            "(function () { 'use strict'; var a = [1, {b: 2}]; })();",
            "var s = '}' + \"{)\" + '\\'}';",
            "var t = `a ${ {x: `}${'}'}`}.x } b` + `}`;",
            "// }\n/* { ) */ var r = /[/}]\\/{/g.test(x);",
            "if (a) /}/.test(b);\nwhile (c) /{/.exec(d);",
            "var q = (a + b) / 2 / c; var e = x[1] / 2; var f = i++ / 3; var g = 'a' / 1;",
            "return /}/.test(y);",
            "var h = x.return / 2; var k = x?.in / 2;",
            "var s = 'line \\\ncontinued }';",
            "var n = 1.5e+3 / .5 / 0x1F;",
            "var u = 'caf\u{E9} }';",
        ]
        for source in sources {
            #expect(Self.problem("(function () {\n" + source + "\n})();") == nil, "\(source)")
        }
    }

    @Test("Unbalanced, unterminated or ambiguous code is refused with the line and the reason")
    func refused() {
        let cases: [(code: String, line: Int, reason: String)] = [
            ("(function () {\n", 1, "the \"{\" of line 1 is never closed"),
            ("var a = [1, 2);", 1, "\")\" closes the \"[\" of line 1"),
            ("var s = 'open;\n}", 1, "a string that does not end on its line"),
            ("var t = `open ${ a }\n}", 1, "a template literal that is never closed"),
            ("/* open\n}", 1, "a comment that is never closed"),
            ("var r = a(/x\n);", 1, "a regular expression that does not end on its line"),
            ("if (a) { b(); }\n/}/.test(c);", 2, "a \"/\" after \"}\" may divide or start a regular expression"),
            ("async function f() { await /}/; }", 1, "a \"/\" after \"await\""),
            ("var x = 1 <!-- }\n", 1, "\"<!--\""),
            ("x\n--> }\n", 2, "\"-->\""),
            ("var caf\u{E9} = 1;", 1, "a character outside ASCII"),
            ("var \\u0061 = 1;", 1, "a \"\\\""),
            ("a();\n}\n", 2, "\"}\" closes a bracket this code did not open"),
            // A keyword read as a name would hide this `}` in a regular expression.
            ("x.in /1}, z = function () { alert(1); 1/ 2;", 1, "\"}\" closes"),
        ]
        for (code, line, reason) in cases {
            let problem = Self.problem(code)
            #expect(problem?.line == line, "\(code)")
            #expect(problem?.reason.contains(reason) == true, "\(code): \(problem?.reason ?? "accepted")")
        }
    }

    @Test("A surrogate that escapes its function is refused with file and line, from a directory and from surrogates.txt")
    func libraryRefuses() throws {
        let path = try SurrogateLibraryTests.directory([
            "a.js": Array("// example.com/a.js application/javascript\nwindow.a = 1;\n}, \"z.js\": function () {\n  alert(1);\n".utf8),
            "b.js": Array("// example.com/b.js application/javascript\n})();alert(1);(function(){\n".utf8),
            "ok.js": Array("// example.com/ok.js application/javascript\n(function () { window.ok = '}'; })();\n".utf8),
        ])
        defer { try? FileManager.default.removeItem(atPath: path) }
        let library = try SurrogateLibrary(contentsOf: path)
        #expect(library.surrogates.surrogates.map(\.name) == ["ok.js"])
        let places = library.refused.map { "\(URL(fileURLWithPath: $0.file ?? "-").lastPathComponent):\($0.line ?? 0)" }
        #expect(places == ["a.js:3", "b.js:2"])
        #expect(library.warnings == library.refused)

        let index = "# surrogates\na.example/ok.js application/javascript\n(function () {})();\n\n"
            + "a.example/z.js application/javascript\nvar a = 1;\n})();alert(1);(function(){\n"
        let fromIndex = SurrogateLibrary(index: Array(index.utf8), file: "s.txt")
        #expect(fromIndex.surrogates.surrogates.map(\.name) == ["ok.js"])
        #expect(fromIndex.refused.map(\.description) == [
            "s.txt: line 7: \"}\" closes a bracket this code did not open; it would end the function the code is wrapped in; surrogate z.js skipped",
        ])
    }

    @Test("The bundled surrogates and bridges are accepted")
    func bundled() {
        #expect(SurrogateLibrary.bundled.warnings.isEmpty)
        #expect(SurrogateLibrary.bundled.surrogates == Surrogates.bundled)
        for (name, source) in BundledTemplates.bridges {
            #expect(UnsafeCode.firstProblem(inFunctionBody: Array(source.utf8)) == nil, "\(name)")
        }
    }

    static let sharedSurrogates = [
        "privacy-reference-tests/tracker-radar-tests/TR-domain-matching/surrogates.txt",
        "privacy-reference-tests/click-to-load/surrogates_reference.txt",
        "privacy-reference-tests/request-blocklist/surrogates-reference.txt",
    ]

    @Test("DuckDuckGo's surrogates in the shared data are accepted", .enabled(if: SharedData.shouldRun(sharedSurrogates[0]), SharedData.skipMessage))
    func sharedData() throws {
        for file in Self.sharedSurrogates {
            let library = try SurrogateLibrary(contentsOf: SharedData.path(file))
            #expect(library.refused.isEmpty, "\(file): \(library.refused)")
            #expect(!library.surrogates.surrogates.isEmpty, "\(file)")
        }
    }
}
