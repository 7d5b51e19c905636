package import Foundation
package import TrackerlessCore

/// The copies a ``ProtectionUpdater`` (or `trackerless fetch`) downloaded, and what the next
/// conditional request needs: one directory holding each body (`tds.json`,
/// `privacy-config.json`) and `downloads.json`, which records for each its URL, `ETag`,
/// `Last-Modified`, size, SHA-256 and XXH64.
///
/// Each file is replaced whole (``TrackerlessCore/FileIO/writeAtomically(_:to:)``), the bodies
/// first and `downloads.json` last, and a read trusts the copies only when every body recorded
/// is there with its size and XXH64: a write killed midway, a damaged or hand-edited file, or a
/// `downloads.json` that is not what this type writes leaves no copy at all, so the next check
/// asks unconditionally and a launch takes the host's embedded copies. Nothing here traps.
package struct DownloadStore: Sendable {
    /// One kept download.
    package struct Entry: Sendable, Equatable {
        /// The source's URL (before redirects): a copy serves the source it came from only.
        package var url: String
        package var etag: String?
        package var lastModified: String?
        /// The body's SHA-256, lowercase hex.
        package var sha256: String
        package var body: [UInt8]

        /// The entry of `body` downloaded from `url`.
        package init(url: String, etag: String?, lastModified: String?, body: [UInt8], sha256: String? = nil) {
            self.url = url
            self.etag = etag
            self.lastModified = lastModified
            self.body = body
            self.sha256 = sha256 ?? SHA256.hexDigest(body)
        }

        /// The runtime's input document of this copy, named by its URL.
        var document: InputDocument { .bytes(body, name: url) }
    }

    /// What the directory holds.
    package struct Contents: Sendable, Equatable {
        package var entries: [ProtectionInput: Entry] = [:]
        /// When a check last found every source valid (updated or unchanged).
        package var checked: Date?
        /// When a check of these sources last was refused, if that came after ``checked``: a
        /// relaunch waits the policy's retry interval from it instead of asking a failing server
        /// again at once.
        package var failed: Date?
        /// The URLs of the sources of the refused check (``failed`` counts for those only).
        var failedSources: String?

        package init(entries: [ProtectionInput: Entry] = [:], checked: Date? = nil) {
            self.entries = entries
            self.checked = checked
        }

        /// Records a refused check of `sources` now; the copies stay as they are.
        mutating func recordFailure(of sources: UpdateSources) {
            failed = Date()
            failedSources = DownloadStore.key(of: sources)
        }

        /// When the next check is due by `policy`: a retry interval after a refused check, an
        /// interval after a valid one, now when none is recorded. A time recorded in the future
        /// (a clock set back, a damaged record) counts as now: no record postpones checks longer
        /// than the policy says.
        func nextCheck(by policy: UpdatePolicy) -> Date {
            let now = Date()
            if let failed, failed > checked ?? .distantPast { return min(failed, now).addingTimeInterval(policy.retryInterval) }
            return checked.map { min($0, now).addingTimeInterval(policy.interval) } ?? now
        }

        /// `inputs` with each kept copy in place of its document.
        func applied(to inputs: ProtectionInputs) -> ProtectionInputs {
            var inputs = inputs
            if let entry = entries[.trackerData] { inputs.trackerData = entry.document }
            if let entry = entries[.privacyConfiguration] { inputs.privacyConfiguration = entry.document }
            return inputs
        }
    }

    /// The directory; created by the first write.
    package let directory: String

    package init(directory: String) {
        self.directory = directory
    }

    package static let metadataName = "downloads.json"
    private static let formatVersion = 1.0

    /// The body's file name of `input`.
    package static func fileName(of input: ProtectionInput) -> String {
        input == .privacyConfiguration ? "privacy-config.json" : "tds.json"
    }

    package func path(of input: ProtectionInput) -> String { directory + "/" + Self.fileName(of: input) }

    package var metadataPath: String { directory + "/" + Self.metadataName }

    // MARK: - Reading

    /// The copies kept for `sources`: all of them whole, or none. A copy of another URL than
    /// its source's, or not the body its source pins, is left out (the host changed the source).
    package func read(for sources: UpdateSources) -> Contents {
        var contents = readAll()
        if contents.failedSources != Self.key(of: sources) {
            contents.failed = nil
            contents.failedSources = nil
        }
        for (input, entry) in contents.entries {
            let source = sources.documents.first { $0.input == input }?.document
            guard let source, source.url.absoluteString == entry.url, source.pinnedDigest.map({ $0 == entry.sha256 }) ?? true else {
                contents.entries[input] = nil
                continue
            }
        }
        return contents
    }

    /// The sources' URLs, one per line.
    static func key(of sources: UpdateSources) -> String {
        sources.documents.map(\.document.url.absoluteString).joined(separator: "\n")
    }

    /// Every copy recorded, whatever its source, checked against its size and XXH64; nothing
    /// when one fails.
    func readAll() -> Contents {
        guard FileManager.default.fileExists(atPath: metadataPath),
            let bytes = try? FileIO.read(path: metadataPath, maxBytes: 1 << 20),
            case .object(let root)? = try? JSONReader.read(bytes, { (reader) throws(JSONReadError) in try reader.readValue() }),
            case .number(Self.formatVersion)? = root["format"],
            case .object(let recorded)? = root["inputs"]
        else { return Contents() }
        var contents = Contents()
        if case .number(let seconds)? = root["checked"], seconds.isFinite { contents.checked = Date(timeIntervalSince1970: seconds) }
        if case .object(let failure)? = root["failed"], case .number(let seconds)? = failure["at"], seconds.isFinite,
            case .string(let urls)? = failure["sources"]
        {
            contents.failed = Date(timeIntervalSince1970: seconds)
            contents.failedSources = urls
        }
        for key in recorded.keys {
            guard let input = ProtectionInput(rawValue: key), input == .trackerData || input == .privacyConfiguration,
                case .object(let fields)? = recorded[key],
                case .string(let url)? = fields["url"], case .string(let sha256)? = fields["sha256"],
                case .string(let xxh64)? = fields["xxh64"], case .number(let size)? = fields["bytes"],
                let count = Int(exactly: size), count >= 0,
                let body = try? FileIO.read(path: path(of: input), maxBytes: count),
                body.count == count, XXH64.hexDigest(body) == xxh64
            else { return Contents() }
            contents.entries[input] = Entry(
                url: url, etag: Self.string(fields["etag"]), lastModified: Self.string(fields["lastModified"]), body: body,
                sha256: sha256)
        }
        return contents
    }

    private static func string(_ value: JSONValue?) -> String? {
        if case .string(let text)? = value { return text }
        return nil
    }

    // MARK: - Writing

    /// Writes `contents`: the bodies of `changed` (and any body not on disk), then
    /// `downloads.json`. A body no longer recorded is left as it is.
    ///
    /// - Throws: ``TrackerlessCore/FileError`` naming the file; what was written before stays,
    ///   and a read finds the copies whole or takes none.
    package func write(_ contents: Contents, changed: Set<ProtectionInput>) throws(FileError) {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw FileError(path: directory, reason: "cannot create the directory: \(error.localizedDescription)")
        }
        var recorded = JSONObject()
        for input in [ProtectionInput.trackerData, .privacyConfiguration] {
            guard let entry = contents.entries[input] else { continue }
            if changed.contains(input) || !FileManager.default.fileExists(atPath: path(of: input)) {
                try FileIO.writeAtomically(entry.body, to: path(of: input))
            }
            var fields = JSONObject([("url", .string(entry.url)), ("file", .string(Self.fileName(of: input)))])
            if let etag = entry.etag { fields.append("etag", .string(etag)) }
            if let lastModified = entry.lastModified { fields.append("lastModified", .string(lastModified)) }
            fields.append("bytes", .number(Double(entry.body.count)))
            fields.append("sha256", .string(entry.sha256))
            fields.append("xxh64", .string(XXH64.hexDigest(entry.body)))
            recorded.append(input.rawValue, .object(fields))
        }
        var root = JSONObject([("format", .number(Self.formatVersion))])
        if let checked = contents.checked { root.append("checked", .number(checked.timeIntervalSince1970)) }
        if let failed = contents.failed, let urls = contents.failedSources {
            root.append("failed", .object(JSONObject([("at", .number(failed.timeIntervalSince1970)), ("sources", .string(urls))])))
        }
        root.append("inputs", .object(recorded))
        try FileIO.writeAtomically(JSONValue.object(root).jsonBytes(), to: metadataPath)
    }

    /// Forgets the copies: the next check asks unconditionally, the next launch takes the
    /// embedded copies.
    package func discard() {
        try? FileManager.default.removeItem(atPath: metadataPath)
    }

    /// Removes what killed writes left (call it where no other writer can be at work).
    func removeStaleTemporaries() {
        for name in [Self.metadataName, Self.fileName(of: .trackerData), Self.fileName(of: .privacyConfiguration)] {
            FileIO.removeStaleTemporaries(of: directory + "/" + name)
        }
    }
}
