import Foundation
import Testing

/// A reader finds a type by its file name: in the matching modules each file declares at most one
/// top-level type that other files may use, and a file declaring one is named after it
/// (`Type.swift`, or `Type+Concern.swift`). File-private helpers and nested types do not count.
@Suite struct SourceLayoutTests {
    static let sources = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources")

    /// The JSON parser's file is left out while the JSON decoding is rewritten.
    static let exempt: Set<String> = ["ContentRuleList/RuleList+Parsing.swift"]

    @Test(arguments: ["ContentRuleList", "RuleEngineKit", "RuleBuilder"])
    func oneTypePerFileNamedAfterIt(module: String) throws {
        let directory = Self.sources.appendingPathComponent(module)
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".swift") }
        #expect(!files.isEmpty, "no Swift files in \(directory.path)")
        let declaration = try Regex(#"^(?:(?:public|package|internal|final) )*(?:struct|enum|class|protocol|actor) ([A-Za-z0-9_]+)"#)
        for file in files.sorted() where !Self.exempt.contains("\(module)/\(file)") {
            let text = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
            let types = text.split(separator: "\n").compactMap { line in
                (try? declaration.prefixMatch(in: line))?.output[1].substring.map(String.init)
            }
            #expect(types.count <= 1, "\(module)/\(file) declares \(types.joined(separator: ", "))")
            if let type = types.first, types.count == 1 {
                let base = String(file.dropLast(".swift".count).prefix { $0 != "+" })
                #expect(base == type, "\(module)/\(file) declares \(type)")
            }
        }
    }
}
