import Foundation
import PrivacyStatsKit
import Testing
import TrackerlessCore
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
        #expect(runtime.currentSet.identity == built.identity)
        #expect(runtime.currentSet.origin == .cache)
        let error = try #require(runtime.lastStorageError)
        #expect("\(error)".contains("privacy-totals") && "\(error)".contains("totals are not saved"), "\(error)")
        _ = runtime
    }

    @Test("totals held by another program's store: the runtime protects, reports it, and saving says so")
    func storeInUse() throws {
        let directory = try RuntimeFixture.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let other = try StatsStore(path: directory + "/privacy-totals")
        let runtime = try ProtectionRuntime(inputs: RuntimeFixture.inputs, cacheDirectory: directory)
        #expect(!runtime.currentSet.ruleLists.isEmpty)
        let error = try #require(runtime.lastStorageError)
        #expect("\(error)".contains("in use by another StatsStore") && "\(error)".contains("totals are not saved"), "\(error)")
        #expect(throws: ProtectionError.unwritable(FileError(path: directory + "/privacy-totals.journal", reason: "cannot lock: in use by another StatsStore (this or another process); the statistics' totals are not saved"))) {
            try runtime.saveStatistics()
        }
        withExtendedLifetime(other) {}
    }

    @Test("a store written by a newer Trackerless is refused, named by its version, and left as it was")
    func newerStore() throws {
        let directory = try RuntimeFixture.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let newer = Data("trackerless-totals 3 7 0badc0de0badc0de\n{\"a later format\": true}".utf8)
        try newer.write(to: URL(fileURLWithPath: directory + "/privacy-totals"))
        let runtime = try ProtectionRuntime(inputs: RuntimeFixture.inputs, cacheDirectory: directory)
        let error = try #require(runtime.lastStorageError)
        #expect("\(error)" == "\(directory)/privacy-totals: written by a newer Trackerless (store version 3; this one reads version 2); not opened, so its totals are kept; the statistics' totals are not saved")
        runtime.didCommitNavigation(tab: "1", url: "https://news.example/")
        #expect(throws: ProtectionError.self) { try runtime.saveStatistics() }
        #expect(try Data(contentsOf: URL(fileURLWithPath: directory + "/privacy-totals")) == newer)
        #expect(!FileManager.default.fileExists(atPath: directory + "/privacy-totals.corrupt"))
    }
}
