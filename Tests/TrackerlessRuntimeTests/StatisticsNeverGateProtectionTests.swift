import Foundation
import Testing
import TrackerlessRuntime

/// The statistics never gate protection: a totals store that cannot be opened leaves the
/// runtime protecting from its whole cached set, and says what it could not write.
@Suite("Runtime: the statistics never gate protection")
struct StatisticsNeverGateProtectionTests {
    @Test("privacy-totals replaced by a directory: the runtime starts from its cached set and reports the store")
    func unopenableStore() throws {
        let directory = try RuntimeFixture.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let built = try ProtectionSet.load(RuntimeFixture.inputs, cacheDirectory: directory)
        try FileManager.default.createDirectory(atPath: directory + "/privacy-totals", withIntermediateDirectories: true)

        let runtime = try ProtectionRuntime(inputs: RuntimeFixture.inputs, cacheDirectory: directory)
        #expect(runtime.currentSet.identifier == built.identifier)
        #expect(runtime.currentSet.origin == .cache)
        let error = try #require(runtime.lastStorageError)
        #expect("\(error)".contains("privacy-totals") && "\(error)".contains("totals are not saved"), "\(error)")
        _ = runtime
    }

    @Test("another runtime's store on the directory is still refused")
    func storeInUse() throws {
        let directory = try RuntimeFixture.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = try ProtectionRuntime(inputs: RuntimeFixture.inputs, cacheDirectory: directory)
        #expect(throws: ProtectionError.self) { try ProtectionRuntime(inputs: RuntimeFixture.inputs, cacheDirectory: directory) }
        _ = first
    }
}
