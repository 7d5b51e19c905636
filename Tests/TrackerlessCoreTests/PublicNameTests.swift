import Foundation
import Testing
import TrackerlessTestSupport

/// The README's rule on names ("No public name is declared by two modules", and no module
/// declares a type of its own name), checked on the sources as they are.
@Suite("Public names")
struct PublicNameTests {
    /// One top-level public or open type, protocol or typealias.
    struct Declaration: CustomStringConvertible {
        var module: String
        var name: String
        var file: String
        var line: Int

        var description: String { "\(module) (\(file):\(line))" }
    }

    /// A top-level declaration (column 0, after attributes and modifiers) that is public or open.
    nonisolated(unsafe) static let declaration =
        #/^(?:@[A-Za-z_]+(?:\([^)]*\))?\s+)*(?:(?:public|open|final|indirect|nonisolated)\s+)*(?:struct|class|enum|protocol|actor|typealias)\s+([A-Za-z_][A-Za-z0-9_]*)/#

    /// The public and open top-level declarations of every module under Sources/.
    static func declarations() throws -> [Declaration] {
        let sources = SharedData.packageRoot.appendingPathComponent("Sources")
        let fileManager = FileManager.default
        var found: [Declaration] = []
        for module in try fileManager.contentsOfDirectory(atPath: sources.path).sorted() {
            let directory = sources.appendingPathComponent(module)
            guard let walker = fileManager.enumerator(atPath: directory.path) else { continue }
            for case let relative as String in walker where relative.hasSuffix(".swift") {
                let text = try String(contentsOf: directory.appendingPathComponent(relative), encoding: .utf8)
                for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                    guard line.contains("public ") || line.contains("open "),
                        let match = try declaration.prefixMatch(in: line)
                    else { continue }
                    let name = match.output.1
                    let modifiers = line[..<name.startIndex]
                    guard modifiers.contains("public ") || modifiers.contains("open ") else { continue }
                    found.append(Declaration(module: module, name: String(name), file: relative, line: index + 1))
                }
            }
        }
        return found
    }

    @Test("the scan finds the modules' main types")
    func scanFindsMainTypes() throws {
        let names = Set(try Self.declarations().map(\.name))
        for name in ["TrackerData", "RuleEngine", "PrivacyStats", "RuleList", "JSONValue", "TrackerResolver"] {
            #expect(names.contains(name), "the scan misses \(name)")
        }
    }

    @Test("no public name is declared by two modules")
    func noNameInTwoModules() throws {
        let byName = Dictionary(grouping: try Self.declarations(), by: \.name)
        let offenders = byName.filter { Set($0.value.map(\.module)).count > 1 }.sorted { $0.key < $1.key }
        for (name, declarations) in offenders {
            Issue.record("\(name) is declared by \(declarations.map(\.description).joined(separator: ", "))")
        }
    }

    @Test("no module declares a type of its own name")
    func noTypeNamedAfterItsModule() throws {
        for declaration in try Self.declarations() where declaration.name == declaration.module {
            Issue.record("module \(declaration.module) declares \(declaration.name) (\(declaration.file):\(declaration.line))")
        }
    }
}
