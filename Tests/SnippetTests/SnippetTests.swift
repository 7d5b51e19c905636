import Foundation
import Testing
import TrackerlessTestSupport

/// Every Swift snippet of the READMEs and the DocC articles compiles as written: the generated
/// files in `Snippets/` are built with this target, and these tests check that they are current and
/// check the snippets that cannot be a function body.
@Suite("Documentation snippets")
struct SnippetTests {
    static let root = SharedData.packageRoot

    /// The documents the generator reads, in its order.
    static func documents() throws -> [String] {
        let sources = root.appendingPathComponent("Sources")
        var docc: [String] = []
        for module in try FileManager.default.contentsOfDirectory(atPath: sources.path) {
            let moduleURL = sources.appendingPathComponent(module)
            let catalogs = (try? FileManager.default.contentsOfDirectory(atPath: moduleURL.path)) ?? []
            for catalog in catalogs where catalog.hasSuffix(".docc") {
                let folder = moduleURL.appendingPathComponent(catalog)
                for file in try FileManager.default.contentsOfDirectory(atPath: folder.path) where file.hasSuffix(".md") {
                    docc.append("Sources/\(module)/\(catalog)/\(file)")
                }
            }
        }
        let others = [
            "JSTemplates/README.md", "Surrogates/README.md", "Examples/HostApp/README.md", "Integrations/WebKitGTK/README.md",
        ]
        return (["README.md"] + docc.sorted() + others).filter {
            FileManager.default.fileExists(atPath: root.appendingPathComponent($0).path)
        }
    }

    /// The ```swift blocks of one document: (line of the opening fence, text).
    static func blocks(of document: String) throws -> [(line: Int, text: String)] {
        let text = try String(contentsOf: root.appendingPathComponent(document), encoding: .utf8)
        var found: [(Int, String)] = []
        var current: [Substring]?
        var start = 0
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if current == nil, trimmed == "```swift" {
                current = []
                start = index + 1
            } else if let lines = current, trimmed == "```" {
                found.append((start, lines.joined(separator: "\n")))
                current = nil
            } else {
                current?.append(line)
            }
        }
        return found
    }

    @Test("the compiled snippets are those of the documents (else run Scripts/generate-snippet-tests.py)")
    func current() throws {
        var found: [String] = []
        for document in try Self.documents() {
            for block in try Self.blocks(of: document) { found.append("\(document):\(block.line)\n\(block.text)") }
        }
        let generated = documentedSnippets.map { "\($0.document):\($0.line)\n\($0.text)" }
        #expect(found == generated, "stale: run python3 Scripts/generate-snippet-tests.py")
        #expect(documentedSnippets.count >= 17)
    }

    @Test("a snippet that uses TrackerlessGenerated stands verbatim in the HostApp example")
    func pluginSnippets() throws {
        let main = try String(
            contentsOf: Self.root.appendingPathComponent("Examples/HostApp/Sources/HostApp/main.swift"), encoding: .utf8)
        let snippets = documentedSnippets.filter { $0.kind == .plugin }
        #expect(!snippets.isEmpty)
        for snippet in snippets {
            #expect(main.contains(snippet.text), "\(snippet.document):\(snippet.line) is not in Examples/HostApp/Sources/HostApp/main.swift")
        }
    }
}

/// A host's `Package.swift` from the documents, loaded by SwiftPM: it parses, and every product and
/// plugin it names exists in this package.
@Suite("Documentation manifests")
struct ManifestSnippetTests {
    /// `swift` from PATH.
    static let swift = ChildProcess.executable(named: "swift")

    @Test("the host manifest of the README loads against this package",
          .enabled(if: swift != nil, "`swift` is not on PATH"))
    func manifests() throws {
        let manifests = documentedSnippets.filter { $0.kind == .manifest }
        #expect(!manifests.isEmpty)
        for snippet in manifests {
            let fileManager = FileManager.default
            let folder = fileManager.temporaryDirectory.appendingPathComponent("trackerless-manifest-\(UUID().uuidString)")
            defer { try? fileManager.removeItem(at: folder) }
            // The snippets name this package `../Trackerless`, as a checkout beside the app.
            let app = folder.appendingPathComponent("MyApp")
            try fileManager.createDirectory(at: app.appendingPathComponent("Sources/MyApp"), withIntermediateDirectories: true)
            try fileManager.createSymbolicLink(
                at: folder.appendingPathComponent("Trackerless"), withDestinationURL: SnippetTests.root)
            try Data(snippet.text.utf8).write(to: app.appendingPathComponent("Package.swift"))
            try Data("print(0)\n".utf8).write(to: app.appendingPathComponent("Sources/MyApp/main.swift"))
            let result = try ChildProcess.run(
                try #require(Self.swift), ["package", "--package-path", app.path, "show-dependencies"], logs: folder)
            #expect(result.status == 0 && !result.output.contains("error:"),
                    "\(snippet.document):\(snippet.line): \(result.output)")
        }
    }
}

/// Facts the documentation states about generated data, checked against the data itself.
@Suite("Documented facts")
struct DocumentedFactsTests {
    @Test("the Public Suffix List's date and Debian version in the README and the catalogs are the bundled list's")
    func publicSuffixListDate() throws {
        let root = SnippetTests.root
        let generated = try String(
            contentsOf: root.appendingPathComponent("Sources/TrackerlessCore/Generated/PublicSuffixList+Data.swift"), encoding: .utf8)
        // The header names the Debian package version, whose first eight digits are the list's date.
        let header = try #require(generated.split(separator: "\n").first { $0.contains("Debian publicsuffix ") })
        let word = try #require(header.split(separator: " ").drop { $0 != "publicsuffix" }.dropFirst().first)
        let version = word.filter { $0 != "," }
        let digits = Array(version.prefix(8))
        try #require(digits.count == 8 && digits.allSatisfy(\.isNumber), "\(header)")
        let date = "\(String(digits[0..<4]))-\(String(digits[4..<6]))-\(String(digits[6..<8]))"
        for document in ["README.md", "Sources/TrackerlessCore/TrackerlessCore.docc/TrackerlessCore.md",
                         "Sources/TrackerlessCore/TrackerlessCore.docc/URLsAndDomains.md"] {
            // Lines joined and case folded: the sentence may wrap anywhere.
            let text = try String(contentsOf: root.appendingPathComponent(document), encoding: .utf8)
                .split(whereSeparator: \.isWhitespace).joined(separator: " ").lowercased()
            #expect(text.contains("list of \(date)"), "\(document) does not state the bundled list's date \(date)")
        }
        let catalog = try String(
            contentsOf: root.appendingPathComponent("Sources/TrackerlessCore/TrackerlessCore.docc/TrackerlessCore.md"), encoding: .utf8)
        #expect(catalog.contains(String(version)), "TrackerlessCore.md does not name Debian's \(version)")
    }
}
