import Foundation
import Testing
import TrackerlessRuntime

/// The runtime's build notes say how close each list is to its target's limits.
@Suite("Runtime: list sizes in the build notes")
struct ListSizeNotesTests {
    @Test("a built set notes each rule list's rules/limit and bytes/budget, the bytes those it installs")
    func sizes() throws {
        let directory = try RuntimeFixture.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let runtime = try ProtectionRuntime(inputs: RuntimeFixture.inputs, cacheDirectory: directory)
        let set = runtime.currentSet
        let sizes = set.notes.filter { $0.hasPrefix("size: ") }
        #expect(sizes.count == set.ruleLists.count, "\(set.notes)")
        let first = try #require(sizes.first)
        let bytes = try #require(set.ruleLists.first).json.count
        #expect(first.hasPrefix("size: main list: ") && first.contains(" \(bytes)/19000000 bytes ("), "\(first)")
    }
}
