import Foundation
import PrivacyStatsKit
import Testing

@Suite("StatsStore: crash-safe totals")
struct StatsStoreTests {
    /// A fresh directory for one test's files.
    static func directory() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("stats-store-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Records `pages` page loads with one blocked tracker each, flushing after each page.
    /// Records `pages` pages with one blocked tracker each, flushing after each: one journal
    /// record per page (the manual schedule: no timer adds a save of its own in between, which on
    /// a slow machine it would).
    static func record(pages: Int, into store: StatsStore) throws {
        let stats = PrivacyStats(resolver: StatsFixture.resolver, secrets: [StatsFixture.secret], store: store, saving: .manual) {
            1_795_003_200
        }
        for page in 0..<pages {
            stats.didCommitNavigation(tab: "1", url: "https://site.test/\(page)")
            _ = stats.receive(
                StatsFixture.body(StatsFixture.message([StatsFixture.request("https://ads.tracker.test/x.js")],
                    page: "https://site.test/\(page)", document: String(repeating: "\(page % 10)", count: 16))),
                tab: "1")
            try stats.flush()
        }
    }

    func append(_ bytes: [UInt8], to path: String) throws {
        let handle = try #require(FileHandle(forWritingAtPath: path))
        handle.seekToEndOfFile()
        handle.write(Data(bytes))
        handle.closeFile()
    }

    @Test("flushed totals survive reopening; a clean shutdown leaves no recovery notes")
    func roundTrip() throws {
        let path = try Self.directory() + "/totals"
        try Self.record(pages: 3, into: StatsStore(path: path))
        let reopened = try StatsStore(path: path)
        #expect(reopened.totals.lifetime.pages == 3)
        #expect(reopened.totals.lifetime.trackersBlocked == 3)
        #expect(reopened.totals.sites["site.test"]?.pages == 3)
        #expect(reopened.recoveryNotes.isEmpty)
        let stats = PrivacyStats(resolver: StatsFixture.resolver, secrets: [], store: reopened)
        #expect(stats.totals() == reopened.totals)
    }

    @Test("journal records are folded into the snapshot every compactAfterRecords appends")
    func compaction() throws {
        let path = try Self.directory() + "/totals"
        try Self.record(pages: 5, into: StatsStore(path: path, compactAfterRecords: 2))
        let journal = try #require(FileManager.default.contents(atPath: path + ".journal"))
        #expect(journal.split(separator: 0x0A).count == 1)
        #expect(try StatsStore(path: path).totals.lifetime.pages == 5)
    }

    @Test("a torn last record (killed mid-append) is ignored; nothing acknowledged is lost")
    func tornRecord() throws {
        let path = try Self.directory() + "/totals"
        try Self.record(pages: 3, into: StatsStore(path: path, compactAfterRecords: 100))
        try append(Array(#"0badc0de {"id": 4, "deltas": [{"site": "site.test", "we"#.utf8), to: path + ".journal")
        do {
            let reopened = try StatsStore(path: path)
            #expect(reopened.totals.lifetime.pages == 3)
            #expect(reopened.recoveryNotes.count == 1)
            #expect(reopened.recoveryNotes.first?.contains("torn last record") == true)
            try Self.record(pages: 1, into: reopened)
        }
        #expect(try StatsStore(path: path).totals.lifetime.pages == 4)
    }

    @Test("a crash between writing the snapshot and emptying the journal doubles nothing")
    func crashDuringCompaction() throws {
        let path = try Self.directory() + "/totals"
        var journal = Data()
        do {
            let store = try StatsStore(path: path, compactAfterRecords: 100)
            try Self.record(pages: 4, into: store)
            journal = try #require(FileManager.default.contents(atPath: path + ".journal"))
            try store.compact()
        }
        // The journal as it was before compaction emptied it: records the snapshot already holds.
        try journal.write(to: URL(fileURLWithPath: path + ".journal"))
        let reopened = try StatsStore(path: path)
        #expect(reopened.totals.lifetime.pages == 4)
        #expect(reopened.totals.lifetime.trackersBlocked == 4)
    }

    @Test("a damaged snapshot is kept as .corrupt; the totals start over from the journal", arguments: [
        "garbage", "truncated", "empty", "checksum",
    ])
    func corruptSnapshot(damage: String) throws {
        let path = try Self.directory() + "/totals"
        try Self.record(pages: 1, into: StatsStore(path: path, compactAfterRecords: 1))  // in the snapshot
        try Self.record(pages: 2, into: StatsStore(path: path, compactAfterRecords: 100))  // in the journal
        var bytes = try #require(FileManager.default.contents(atPath: path))
        switch damage {
        case "garbage": bytes = Data("not a snapshot at all".utf8)
        case "truncated": bytes = bytes.prefix(bytes.count / 2)
        case "empty": bytes = Data()
        default: bytes[bytes.count - 5] ^= 0x01
        }
        try bytes.write(to: URL(fileURLWithPath: path))
        do {
            let reopened = try StatsStore(path: path)
            #expect(reopened.totals.lifetime.pages == 2)
            #expect(FileManager.default.fileExists(atPath: path + ".corrupt"))
            #expect(reopened.recoveryNotes.first?.contains("damaged snapshot") == true)
            try Self.record(pages: 1, into: reopened)
        }
        #expect(try StatsStore(path: path).totals.lifetime.pages == 3)
    }

    @Test("a store of an older version (1: CRC-32 checksums) is read as damaged: kept as .corrupt, the totals starting over")
    func olderVersionSnapshot() throws {
        let path = try Self.directory() + "/totals"
        try Self.record(pages: 2, into: StatsStore(path: path, compactAfterRecords: 1))  // all in the snapshot
        let written = try #require(FileManager.default.contents(atPath: path))
        let newline = try #require(written.firstIndex(of: 0x0A))
        let header = String(decoding: written[..<newline], as: UTF8.self).split(separator: " ")
        try #require(header.count == 4 && header[0] == "trackerless-totals" && header[1] == "2", "\(header)")
        // The same totals as version 1 wrote them: its header word and an 8-digit CRC-32.
        let older = Data("trackerless-totals 1 \(header[2]) 0badc0de\n".utf8) + written[(newline + 1)...]
        try older.write(to: URL(fileURLWithPath: path))
        try? FileManager.default.removeItem(atPath: path + ".journal")

        do {
            let reopened = try StatsStore(path: path)
            #expect(reopened.totals.lifetime.pages == 0, "an older store's totals are not read")
            #expect(FileManager.default.contents(atPath: path + ".corrupt") == older, "the older store is kept as .corrupt")
            #expect(reopened.recoveryNotes.first?.contains("damaged snapshot") == true, "\(reopened.recoveryNotes)")
            try Self.record(pages: 1, into: reopened)
        }
        #expect(try StatsStore(path: path).totals.lifetime.pages == 1)
    }

    @Test("a damaged record in the middle of the journal is skipped, the others applied, the journal kept")
    func corruptRecord() throws {
        let path = try Self.directory() + "/totals"
        try Self.record(pages: 3, into: StatsStore(path: path, compactAfterRecords: 100))
        let journalPath = path + ".journal"
        var lines = try #require(FileManager.default.contents(atPath: journalPath)).split(separator: 0x0A)
        #expect(lines.count == 3)
        // Breaks the second record's JSON; its checksum no longer matches.
        var damaged = Data(lines[1])
        damaged[damaged.count - 3] ^= 0x20
        lines[1] = damaged
        try Data(lines.joined(separator: [0x0A]) + [0x0A]).write(to: URL(fileURLWithPath: journalPath))
        let reopened = try StatsStore(path: path)
        #expect(reopened.totals.lifetime.pages == 2)
        #expect(FileManager.default.fileExists(atPath: journalPath + ".corrupt"))
    }

    @Test("a record whose negative deltas would take a count below zero is skipped, named by file and line")
    func negativeRecord() throws {
        let path = try Self.directory() + "/totals"
        let journalPath = path + ".journal"
        let url = "https://analytics.test/a.js"
        do {
            let stats = PrivacyStats(
                resolver: StatsFixture.resolver, secrets: [StatsFixture.secret],
                store: try StatsStore(path: path, compactAfterRecords: 100)) { 1_795_003_200 }
            stats.didCommitNavigation(tab: "1", url: "https://site.test/")
            _ = stats.receive(StatsFixture.body(StatsFixture.message(
                [.surrogate(url: url, surrogate: "analytics.js")], document: "2222222222222222", script: .blocking)), tab: "1")
            try stats.flush()  // journal line 1: +1 page, +1 blocked
            _ = stats.receive(StatsFixture.body(StatsFixture.message(
                [StatsFixture.request(url, .script, .loaded)], document: "1111111111111111")), tab: "1")
            try stats.flush()  // journal line 2: -1 blocked, +1 allowed
        }
        // Without its first line, the journal takes back a block nothing counted.
        let lines = try #require(FileManager.default.contents(atPath: journalPath)).split(separator: 0x0A)
        #expect(lines.count == 2)
        try Data(lines[1] + [0x0A]).write(to: URL(fileURLWithPath: journalPath))
        let reopened = try StatsStore(path: path)
        #expect(reopened.totals == TotalsSnapshot())
        #expect(reopened.recoveryNotes == [
            "\(journalPath):1: record 2 would leave lifetime.trackersBlocked = -1; record skipped",
            "\(journalPath): skipped 1 damaged record(s); journal kept as \(journalPath).corrupt",
        ])
        #expect(FileManager.default.fileExists(atPath: journalPath + ".corrupt"))
    }

    @Test("unflushed counts are in the live totals but not on disk")
    func unflushed() throws {
        let path = try Self.directory() + "/totals"
        do {
            let stats = PrivacyStats(resolver: StatsFixture.resolver, secrets: [], store: try StatsStore(path: path))
            stats.didCommitNavigation(tab: "1", url: "https://site.test/")
            #expect(stats.totals().lifetime.pages == 1)
        }
        #expect(try StatsStore(path: path).totals.lifetime.pages == 0)
        do {
            let stats = PrivacyStats(resolver: StatsFixture.resolver, secrets: [], store: try StatsStore(path: path))
            stats.didCommitNavigation(tab: "1", url: "https://site.test/")
            try stats.flush()
        }
        #expect(try StatsStore(path: path).totals.lifetime.pages == 1)
    }

    @Test("one store per file: a second store on the same file fails to open until the first is gone")
    func exclusive() throws {
        let path = try Self.directory() + "/totals"
        do {
            let first = try StatsStore(path: path)
            #expect(throws: StatsStoreError.self) { try StatsStore(path: path) }
            _ = first.totals
        }
        #expect(try StatsStore(path: path).totals.lifetime.pages == 0)
    }

    @Test("an unwritable location is an error naming the path, not a crash")
    func unwritable() {
        #expect(throws: StatsStoreError.self) { try StatsStore(path: "/proc/no-such-dir/totals") }
    }
}
