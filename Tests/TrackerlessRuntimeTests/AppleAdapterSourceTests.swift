import Foundation
import Testing
import TrackerlessTestSupport

/// The Apple adapter (Sources/TrackerlessWebKit) cannot be built on Linux. What can be checked
/// here is what TrackerlessRuntime's article "Attaching to a web view" says of it: every file is inside `#if canImport(WebKit)` (so the
/// module builds, empty, with the toolchain alone), and it keeps the runtime's rules for lists.
@Suite("The Apple adapter's sources")
struct AppleAdapterSourceTests {
    static let directory = SharedData.packageRoot.appendingPathComponent("Sources/TrackerlessWebKit")

    static func sources() throws -> [(name: String, text: String)] {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".swift") }.sorted()
        return try names.map { ($0, try String(contentsOf: directory.appendingPathComponent($0), encoding: .utf8)) }
    }

    @Test("every file's code is inside #if canImport(WebKit) ... #endif")
    func everyFileIsConditional() throws {
        let files = try Self.sources()
        #expect(!files.isEmpty)
        for file in files {
            let code = file.text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
                .filter { !$0.hasPrefix("//") }
            #expect(code.first == "#if canImport(WebKit)", "\(file.name): first line of code is \(code.first ?? "nothing")")
            #expect(code.last == "#endif", "\(file.name): last line of code is \(code.last ?? "nothing")")
            // The first #if closes on the last line only: nothing is outside it, and no #else.
            var depth = 0
            for (index, line) in code.enumerated() {
                if line.hasPrefix("#if") { depth += 1 }
                if line.hasPrefix("#endif") { depth -= 1 }
                #expect(depth > 0 || index == code.count - 1, "\(file.name): code after the conditional closes")
                #expect(!(depth == 1 && (line.hasPrefix("#else") || line.hasPrefix("#elseif"))), "\(file.name): an #else branch")
            }
        }
    }

    @Test("lists are looked up by identifier before compiling, and stale identifiers removed")
    func looksUpBeforeCompiling() throws {
        let text = try Self.sources().map(\.text).joined(separator: "\n")
        let lookUp = try #require(text.range(of: "store.contentRuleList(forIdentifier:"))
        let compile = try #require(text.range(of: "store.compileContentRuleList("))
        #expect(lookUp.lowerBound < compile.lowerBound)
        #expect(text.contains("isStale(ruleListIdentifier:"))
        #expect(text.contains("store.removeContentRuleList(forIdentifier:"))
    }
}
