#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import TrackerlessCore

/// Where ``PrivacyStats`` keeps its totals across launches: a file the host chooses, written so
/// that a crash at any moment loses no acknowledged count and doubles none.
///
/// Two files:
/// - `path`: the snapshot, replaced whole with `FileIO.writeAtomically(_:to:)` (temporary file,
///   fsync, rename). Its first line is `trackerless-totals 2 <last record id> <XXH64 of the
///   rest>`, then the totals as JSON.
/// - `path.journal`: an append-only journal, one record per `append(_:)`, each a line
///   `<XXH64, 16 hex digits> {"id": n, "deltas": […]}`, fsynced before `append(_:)` returns.
///
/// Every record has the next id. Compaction writes the totals with the id of the last record in
/// them, then empties the journal; a crash between the two leaves records the snapshot already
/// holds, and replay skips every record whose id is not above the snapshot's.
///
/// Recovery, at ``init(path:compactAfterRecords:)``:
/// - a torn last record (the process died while appending) is ignored: its `append(_:)` never
///   returned, so nothing acknowledged is in it;
/// - a damaged record elsewhere is skipped, the journal kept as `path.journal.corrupt`; so is a
///   record whose negative deltas would take a count below zero (the note names its line);
/// - a damaged snapshot is kept as `path.corrupt` and the totals start over from the journal;
///   a snapshot of a newer format (a later Trackerless wrote it) is not damaged: the store refuses
///   to open, naming the version, and writes nothing;
/// - the recovered state is compacted at once, so the journal never grows after a torn line.
///
/// ``recoveryNotes`` says what recovery did.
///
/// One store per file at a time: the journal is locked (`flock`) while a store has it open, and
/// a second store on the same file, in this process or another, fails to open.
public final class StatsStore: @unchecked Sendable {
    /// The snapshot file.
    public let path: String
    /// The journal file.
    public var journalPath: String { path + ".journal" }
    /// Records appended before the journal is folded into the snapshot.
    public let compactAfterRecords: Int

    private let lock = NSLock()
    private var storedTotals = TotalsSnapshot()
    private var lastRecordID = 0
    private var recordsInJournal = 0
    private var journalDescriptor: Int32 = -1
    private var journalSize: off_t = 0
    private var notes: [String] = []

    /// Opens the store at `path`, creating it when absent, and recovers from any earlier crash.
    ///
    /// - Throws: ``StatsStoreError`` when the files cannot be read, created or written (never for
    ///   damaged content, which is recovered from).
    public init(path: String, compactAfterRecords: Int = 1024) throws(StatsStoreError) {
        self.path = path
        self.compactAfterRecords = max(1, compactAfterRecords)
        // The journal is opened and locked first, so that recovery never races another writer.
        try openJournal()
        try recover()
        try compactLocked()
    }

    deinit {
        if journalDescriptor >= 0 { close(journalDescriptor) }
    }

    /// The totals the files hold.
    public var totals: TotalsSnapshot {
        lock.lock()
        defer { lock.unlock() }
        return storedTotals
    }

    /// What recovery found and did, one sentence each; empty after a clean shutdown.
    public var recoveryNotes: [String] {
        lock.lock()
        defer { lock.unlock() }
        return notes
    }

    /// Appends the deltas as one journal record and makes it durable; when this returns, the
    /// counts survive any crash.
    ///
    /// - Throws: ``StatsStoreError`` when writing or syncing fails; the journal is then cut back
    ///   to its previous length and the totals are unchanged.
    func append(_ deltas: [TotalsDelta]) throws(StatsStoreError) {
        guard !deltas.isEmpty else { return }
        lock.lock()
        defer { lock.unlock() }
        let id = lastRecordID + 1
        let record = JSONValue.object(JSONObject([
            ("id", .number(Double(id))), ("deltas", .array(deltas.map { $0.jsonValue() })),
        ])).jsonBytes()
        var line = Array(XXH64.hexDigest(record).utf8)
        line.append(0x20)
        line.append(contentsOf: record)
        line.append(0x0A)
        try openJournal()
        if let failure = Self.writeAll(line, to: journalDescriptor) ?? (fsync(journalDescriptor) == 0 ? nil : errno) {
            _ = ftruncate(journalDescriptor, journalSize)
            throw StatsStoreError(path: journalPath, reason: "appending a record failed: \(Self.message(failure))")
        }
        journalSize += off_t(line.count)
        lastRecordID = id
        recordsInJournal += 1
        for delta in deltas { storedTotals.apply(delta) }
        if recordsInJournal >= compactAfterRecords { try compactLocked() }
    }

    /// Folds the journal into the snapshot now.
    public func compact() throws(StatsStoreError) {
        lock.lock()
        defer { lock.unlock() }
        try compactLocked()
    }

    // MARK: - Compaction and recovery

    private func compactLocked() throws(StatsStoreError) {
        let body = storedTotals.jsonValue().jsonBytes()
        var file = Array("trackerless-totals \(Self.version) \(lastRecordID) \(XXH64.hexDigest(body))\n".utf8)
        file.append(contentsOf: body)
        do {
            try FileIO.writeAtomically(file, to: path)
        } catch {
            throw StatsStoreError(path: path, reason: error.description)
        }
        // A crash here leaves journal records the snapshot holds; their ids are skipped on replay.
        try openJournal()
        guard ftruncate(journalDescriptor, 0) == 0, fsync(journalDescriptor) == 0 else {
            throw StatsStoreError(path: journalPath, reason: "emptying the journal failed: \(Self.message(errno))")
        }
        journalSize = 0
        recordsInJournal = 0
    }

    private static let notRegular = "is not a regular file (a FIFO, socket or device)"

    private func openJournal() throws(StatsStoreError) {
        guard journalDescriptor < 0 else { return }
        // Without blocking, and only a regular file: opening a FIFO put in its place would wait
        // for a reader, and hang the launch of the runtime whose totals these are.
        let descriptor = open(journalPath, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NONBLOCK, 0o644)
        guard descriptor >= 0 else {
            let reason = errno == ENXIO ? Self.notRegular : Self.message(errno)
            throw StatsStoreError(path: journalPath, reason: "cannot open: \(reason)")
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            throw StatsStoreError(path: journalPath, reason: "cannot open: \(Self.notRegular)")
        }
        // One writer at a time: two stores on one file would hand out the same record ids, and
        // replay would then skip one writer's counts as already applied.
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let isInUse = errno == EWOULDBLOCK
            let reason = isInUse ? "in use by another StatsStore (this or another process)" : Self.message(errno)
            close(descriptor)
            throw StatsStoreError(path: journalPath, reason: "cannot lock: \(reason)", isInUse: isInUse)
        }
        journalDescriptor = descriptor
        journalSize = lseek(descriptor, 0, SEEK_END)
    }

    private func recover() throws(StatsStoreError) {
        if let bytes = try readIfPresent(path) {
            // A newer Trackerless's store is not ours to judge: read as damaged, its totals would
            // restart at zero and the file be overwritten.
            if let version = Self.newerVersion(bytes) {
                throw StatsStoreError(
                    path: path,
                    reason: "written by a newer Trackerless (store version \(version); this one reads version \(Self.version)); not opened, so its totals are kept",
                    isNewerVersion: true)
            }
            if let (totals, lastID) = Self.parseSnapshot(bytes) {
                storedTotals = totals
                lastRecordID = lastID
            } else {
                try keepCorruptCopy(of: path, bytes)
                notes.append("\(path): damaged snapshot kept as \(path).corrupt; totals start over from the journal")
            }
        }
        guard let journal = try readIfPresent(journalPath) else { return }
        var lines = journal.split(separator: 0x0A, omittingEmptySubsequences: false)
        let tail = lines.removeLast()  // after the last newline: empty, or a torn record
        if !tail.isEmpty {
            if Self.parseRecord(tail) != nil {
                lines.append(tail)  // whole but for its newline
            } else {
                notes.append("\(journalPath): ignored a torn last record (\(tail.count) bytes)")
            }
        }
        var damaged = 0
        for (offset, line) in lines.enumerated() {
            guard let (id, deltas) = Self.parseRecord(line) else {
                damaged += 1
                continue
            }
            guard id > lastRecordID else { continue }
            // A record takes back only what earlier ones counted; one that takes more is damaged.
            if let negative = storedTotals.applyUnlessNegative(deltas) {
                damaged += 1
                notes.append("\(journalPath):\(offset + 1): record \(id) would leave \(negative); record skipped")
                continue
            }
            lastRecordID = id
        }
        if damaged > 0 {
            try keepCorruptCopy(of: journalPath, journal)
            notes.append("\(journalPath): skipped \(damaged) damaged record(s); journal kept as \(journalPath).corrupt")
        }
    }

    private func readIfPresent(_ file: String) throws(StatsStoreError) -> [UInt8]? {
        guard access(file, F_OK) == 0 else { return nil }
        do {
            return try FileIO.read(path: file)
        } catch {
            throw StatsStoreError(path: file, reason: error.description)
        }
    }

    private func keepCorruptCopy(of file: String, _ bytes: [UInt8]) throws(StatsStoreError) {
        do {
            try FileIO.writeAtomically(bytes, to: file + ".corrupt")
        } catch {
            throw StatsStoreError(path: file + ".corrupt", reason: error.description)
        }
    }

    /// The format this code writes and reads: the snapshot's second header word.
    /// 2: the snapshot's and the records' checksums are XXH64 (TrackerlessCore's one integrity
    /// checksum), were CRC-32; a version 1 store reads as damaged (kept as `.corrupt`).
    static let version = 2

    /// The version of a snapshot whose header names a format above ``version``; nil for any other
    /// file, damaged ones included.
    static func newerVersion(_ bytes: [UInt8]) -> Int? {
        let header = bytes.prefix(64).split(separator: 0x0A, maxSplits: 1, omittingEmptySubsequences: false).first ?? []
        let words = String(decoding: header, as: UTF8.self).split(separator: " ")
        guard words.count >= 2, words[0] == "trackerless-totals", let version = Int(words[1]), version > Self.version else {
            return nil
        }
        return version
    }

    static func parseSnapshot(_ bytes: [UInt8]) -> (TotalsSnapshot, Int)? {
        guard let newline = bytes.firstIndex(of: 0x0A) else { return nil }
        let header = String(decoding: bytes[..<newline], as: UTF8.self).split(separator: " ")
        let body = bytes[(newline + 1)...]
        guard header.count == 4, header[0] == "trackerless-totals", header[1] == "\(Self.version)",
            let lastID = Int(header[2]), lastID >= 0, header[3] == XXH64.hexDigest(Array(body)),
            let totals = TotalsSnapshot(jsonBytes: Array(body))
        else { return nil }
        return (totals, lastID)
    }

    static func parseRecord(_ line: ArraySlice<UInt8>) -> (Int, [TotalsDelta])? {
        guard line.count > 17, line[line.startIndex + 16] == 0x20 else { return nil }
        let checksum = String(decoding: line.prefix(16), as: UTF8.self)
        let record = Array(line.dropFirst(17))
        guard checksum == XXH64.hexDigest(record) else { return nil }
        let parsed = try? JSONReader.read(record) { (reader) throws(JSONReadError) -> (Int, [TotalsDelta])? in
            try journalRecord(&reader)
        }
        return parsed ?? nil
    }

    /// A journal record, `{"id": N, "deltas": [delta, …]}`; nil when anything in it is missing or
    /// of the wrong type (a member's last occurrence counts).
    private static func journalRecord(_ reader: inout JSONReader) throws(JSONReadError) -> (Int, [TotalsDelta])? {
        guard var members = try reader.enterObjectIfPresent() else { return nil }
        var id: Int?
        var deltas: [TotalsDelta]?
        while let key = try reader.nextKey(in: &members) {
            switch key {
            case "id": id = JSONCount.count(try reader.readDoubleIfPresent())
            case "deltas":
                guard try reader.nextKind() == .array else {
                    try reader.skipValue()
                    deltas = nil
                    continue
                }
                var read: [TotalsDelta]? = []
                var elements = try reader.enterArray(at: .root)
                while try reader.nextElement(in: &elements) {
                    if let delta = try TotalsDelta.read(&reader) {
                        read?.append(delta)
                    } else {
                        read = nil
                    }
                }
                deltas = read
            default: try reader.skipValue()
            }
        }
        guard let id, id > 0, let deltas else { return nil }
        return (id, deltas)
    }

    /// nil on success, else the errno.
    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Int32? {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                write(descriptor, buffer.baseAddress.map { $0 + offset }, bytes.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            offset += written
        }
        return nil
    }

    private static func message(_ code: Int32) -> String {
        strerror(code).map { String(cString: $0) } ?? "error \(code)"
    }
}
