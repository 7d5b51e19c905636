import Foundation
import Testing
import TrackerlessTestSupport

/// A reader of the repository has no issue tracker: no source, test, script or document points
/// to one by number (the word, then a number or `#` and a number); it says what it means instead.
@Suite("No issue-tracker references")
struct TrackerReferenceTests {
    /// Folders that are not ours to read: hidden ones (build products, Git's own) other than
    /// `.ci`, and downloaded packages.
    static func isSkipped(_ name: String) -> Bool {
        (name.hasPrefix(".") && name != ".ci") || name == "node_modules"
    }

    /// The extensions of the text files read.
    static let extensions: Set<String> = [
        "swift", "md", "js", "json", "html", "css", "py", "sh", "c", "h", "txt", "yml", "yaml",
    ]

    /// "issue" or "issues", then a number (with or without `#`), any case.
    static func references(in text: String) throws -> [String] {
        let word = "iss" + "ue"
        let pattern = try Regex("(?i)\\b\(word)s?\\s+#?[0-9]+")
        return text.matches(of: pattern).map { String(text[$0.range]) }
    }

    @Test("the pattern finds a reference and leaves other numbers")
    func pattern() throws {
        let word = "Iss" + "ue"
        #expect(try Self.references(in: "see \(word) 23, item 4") == ["\(word) 23"])
        #expect(try Self.references(in: "(\(word.lowercased())s #25)") == ["\(word.lowercased())s #25"])
        #expect(try Self.references(in: "tissue 3 and issued 4 rules").isEmpty)
    }

    @Test("no file of the repository refers to an issue by number")
    func noReferences() throws {
        let root = SharedData.packageRoot
        var found: [String] = []
        var files = 0
        let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isDirectoryKey])
        while let url = walker?.nextObject() as? URL {
            if Self.isSkipped(url.lastPathComponent) {
                walker?.skipDescendants()
                continue
            }
            guard Self.extensions.contains(url.pathExtension),
                let text = try? String(contentsOf: url, encoding: .utf8)
            else { continue }
            files += 1
            for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where line.lowercased().contains("ssue") {
                for reference in try Self.references(in: String(line)) {
                    let path = url.path.dropFirst(root.path.count + 1)
                    found.append("\(path):\(index + 1): \(reference)")
                }
            }
        }
        #expect(files > 500, "only \(files) text files found under \(root.path)")
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }
}
