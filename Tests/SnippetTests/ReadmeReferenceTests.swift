import Foundation
import Testing
import TrackerlessTestSupport

/// The READMEs are maps: every relative link they give and every repository path they name in
/// code spans is there, and every test they cite as evidence (a name ending in `Tests`) is a test
/// type, file or folder of the repository's test trees.
@Suite("README references")
struct ReadmeReferenceTests {
    static let root = SharedData.packageRoot
    static let documents = ["README.md", "Integrations/WebKitGTK/README.md"]
    /// The repository's top-level folders a path in a code span may start with.
    static let topLevel = ["Sources/", "Tests/", "Scripts/", "Examples/", "Integrations/", "JSTemplates/", "Surrogates/",
                           "Plugins/", "Fuzz/", ".ci/"]

    static func text(_ document: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(document), encoding: .utf8)
    }

    /// Whether `path` is there, from the repository root or from the document's folder.
    static func exists(_ path: String, from document: String) -> Bool {
        let folder = root.appendingPathComponent(document).deletingLastPathComponent()
        return [root.appendingPathComponent(path), folder.appendingPathComponent(path)].contains {
            FileManager.default.fileExists(atPath: $0.path)
        }
    }

    /// Every name of a type, a file (without `.swift`) and a folder under the test trees.
    static func testNames() throws -> Set<String> {
        let declaration = #/(?:struct|class|enum|extension|actor)\s+([A-Za-z_][A-Za-z0-9_]*)/#
        var names: Set<String> = []
        for tree in ["Tests", "Integrations/WebKitGTK/Tests"] {
            let base = root.appendingPathComponent(tree)
            guard let walker = FileManager.default.enumerator(atPath: base.path) else { continue }
            for case let relative as String in walker {
                let components = relative.split(separator: "/").map(String.init)
                names.formUnion(components.map { $0.hasSuffix(".swift") ? String($0.dropLast(6)) : $0 })
                guard relative.hasSuffix(".swift") else { continue }
                let source = try String(contentsOf: base.appendingPathComponent(relative), encoding: .utf8)
                names.formUnion(source.matches(of: declaration).map { String($0.output.1) })
            }
        }
        return names
    }

    @Test("every relative link of the READMEs leads to a file or folder of the repository", arguments: documents)
    func links(document: String) throws {
        let targets = try Self.text(document).matches(of: #/\]\(([^)\s]+)\)/#).map { String($0.output.1) }
            .filter { !$0.hasPrefix("http://") && !$0.hasPrefix("https://") }
        #expect(targets.count >= (document == "README.md" ? 20 : 0), "\(targets)")
        for target in targets {
            let path = String(target.split(separator: "#", omittingEmptySubsequences: false)[0])
            #expect(Self.exists(path, from: document), "\(document): the link \(target) leads nowhere")
        }
    }

    @Test("every repository path the READMEs name in a code span is there", arguments: documents)
    func paths(document: String) throws {
        let spans = try Self.text(document).matches(of: #/`([^`\s]+)`/#).map { String($0.output.1) }
        let paths = spans.filter { span in
            Self.topLevel.contains { span.hasPrefix($0) } && !span.contains { "<*…".contains($0) }
        }
        #expect(!paths.isEmpty)
        for path in paths {
            let file = String(path.split(separator: ":")[0])
            #expect(Self.exists(file, from: document), "\(document): `\(path)` is not in the repository")
        }
    }

    @Test("every test the READMEs cite is a test type, file or folder", arguments: documents)
    func citedTests(document: String) throws {
        let names = try Self.testNames()
        let cited = Set(try Self.text(document).matches(of: #/\b([A-Z][A-Za-z0-9]*Tests)\b/#).map { String($0.output.1) })
        #expect(cited.count >= 5, "\(cited.sorted())")
        for test in cited.sorted() {
            #expect(names.contains(test), "\(document) cites \(test), which no test type, file or folder is")
        }
    }
}
