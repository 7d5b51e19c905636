public import TrackerlessCore

/// A recording of what a host received (<doc:RecordingFormat>): JSON lines of navigations,
/// messages and tab closes, which `trackerless stats --messages` replays through a
/// ``PrivacyStats``.
///
/// ```swift
/// let recording = try StatsRecording(parsing: bytes, file: "recording.jsonl")
/// let replay = recording.replay(into: stats)
/// print(replay.pages.count)
/// ```
package struct StatsRecording: Sendable {
    /// One line of the recording.
    package struct Record: Sendable {
        /// What the line says happened.
        package enum Kind: Sendable {
            /// A main-frame navigation committed: a new page at the URL.
            case navigate(String)
            /// A message body, and the page URL it names when that is readable.
            case message(MessageBody, pageURL: String?)
            /// The tab closed.
            case close
        }

        package var tab: TabID
        package var kind: Kind
    }

    /// What a replay leaves: each page's final snapshot, in the order the pages started.
    package struct Replay: Sendable {
        package var pages: [PageSnapshot]
        /// The tab of the last record, nil for an empty recording.
        package var lastTab: TabID?
    }

    /// The records, in order; blank lines are left out.
    package var records: [Record]

    /// Reads a recording.
    ///
    /// - Throws: ``StatsRecordingError`` naming the file and line of the first line that is not
    ///   JSON (with the column and byte of the problem) or not a record.
    package init(parsing bytes: [UInt8], file: String) throws(StatsRecordingError) {
        records = []
        var lineNumber = 0
        for line in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
            lineNumber += 1
            if let record = try Self.record(line: line, file: file, lineNumber: lineNumber) { records.append(record) }
        }
    }

    /// The record of one line of a recording, nil for a blank line: what a reader that takes the
    /// lines as they arrive (`trackerless stats --messages -`) feeds to a ``Replayer``.
    ///
    /// - Throws: ``StatsRecordingError`` naming the file and line when the line is not JSON (with
    ///   the column and byte of the problem) or not a record.
    package static func record(line: some Collection<UInt8>, file: String, lineNumber: Int) throws(StatsRecordingError) -> Record? {
        guard line.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) else { return nil }
        do throws(JSONReadError) {
            return try JSONReader.read(Array(line)) { (reader) throws(JSONReadError) -> Record in
                try record(&reader, file: file, line: lineNumber)
            }
        } catch {
            switch error {
            case .syntax(let error): throw .syntax(error, file: file, line: lineNumber)
            case .rejected(let error as StatsRecordingError): throw error
            case .invalidValue(let error): throw .invalidRecord(error.reason, file: file, line: lineNumber)
            case .rejected(let error): throw .invalidRecord("\(error)", file: file, line: lineNumber)
            }
        }
    }

    /// The record of the line's object, read member by member; a member's last occurrence wins,
    /// as a lookup in `JSON.parse`'s result finds it.
    private static func record(_ reader: inout JSONReader, file: String, line: Int) throws(JSONReadError) -> Record {
        func invalid(_ reason: String) -> JSONReadError {
            .rejected(StatsRecordingError.invalidRecord(reason, file: file, line: line))
        }
        let start = reader.checkpoint
        let kind = try reader.nextKind()
        guard kind == .object else {
            try reader.skipValue()
            throw invalid("expected a JSON object, found \(kind.typeName)")
        }
        var tab: Result<String, JSONReadError>?
        var navigate: String?
        var close = false
        var message: JSONValue?
        var isMessage = false
        var members = try reader.enterObject(at: .root)
        while let key = try reader.nextKey(in: &members) {
            switch key {
            case "tab":
                let kind = try reader.nextKind()
                if kind == .string {
                    tab = .success(try reader.readString(at: .root))
                } else {
                    tab = .failure(invalid("\"tab\" must be a string, found \(kind.typeName)"))
                    try reader.skipValue()
                }
            case "navigate": navigate = try reader.readStringIfPresent()
            case "close": close = try reader.readBoolIfPresent() == true
            case "message":
                message = try reader.nextKind() == .string ? .string(try reader.readString(at: .root)) : try reader.readValue()
            case "trackerless":
                isMessage = true
                try reader.skipValue()
            default: try reader.skipValue()
            }
        }
        let recordTab = TabID(try tab?.get() ?? "1")
        if let navigate { return Record(tab: recordTab, kind: .navigate(navigate)) }
        if close { return Record(tab: recordTab, kind: .close) }
        if let message { return Record(tab: recordTab, kind: messageKind(message)) }
        if isMessage {
            // The whole line is the message.
            let end = reader.checkpoint
            reader.restore(start)
            let object = try reader.readValue()
            reader.restore(end)
            return Record(tab: recordTab, kind: messageKind(object))
        }
        throw invalid("expected \"navigate\", \"message\", \"close\" or a message with \"trackerless\"")
    }

    /// A message record; its body is checked by the statistics as a host would, not here.
    private static func messageKind(_ value: JSONValue) -> Record.Kind {
        // An object is serialized again, so the size limit applies as it does to a body a web
        // view posts.
        let bytes: [UInt8]
        if case .string(let text) = value {
            bytes = Array(text.utf8)
        } else {
            bytes = value.jsonBytes()
        }
        return .message(.bytes(bytes), pageURL: pageURL(inMessage: bytes))
    }

    /// The message's `page.url` (the last `page`'s last `url`, as a lookup in `JSON.parse`'s
    /// result finds it); nil when the text is not JSON, not an object, or has no such string.
    private static func pageURL(inMessage bytes: [UInt8]) -> String? {
        let url = try? JSONReader.read(bytes) { (reader) throws(JSONReadError) -> String? in
            guard var members = try reader.enterObjectIfPresent() else { return nil }
            var url: String?
            while let key = try reader.nextKey(in: &members) {
                guard case "page" = key else {
                    try reader.skipValue()
                    continue
                }
                url = nil
                guard var page = try reader.enterObjectIfPresent() else { continue }
                while let key = try reader.nextKey(in: &page) {
                    if case "url" = key {
                        url = try reader.readStringIfPresent()
                    } else {
                        try reader.skipValue()
                    }
                }
            }
            return url
        }
        return url ?? nil
    }

    /// The well-formed secrets the recording's messages carry.
    package func secrets() -> [ScriptSecret] {
        Array(Set(records.compactMap(\.secret).map(\.value))).sorted().compactMap { ScriptSecret(hex: $0) }
    }

    /// Feeds every record to `stats`, as a host would have. A message for a tab that has no page
    /// yet starts one at the message's `page.url`. Time and memory are linear in the records
    /// and tabs.
    package func replay(into stats: PrivacyStats) -> Replay {
        replay(into: stats) { (_: Int) in }
    }

    /// ``replay(into:)``, calling `afterRecord` with the number of records done after each.
    package func replay<Failure: Error>(
        into stats: PrivacyStats, afterRecord: (_ recordsDone: Int) throws(Failure) -> Void
    ) throws(Failure) -> Replay {
        var replayer = Replayer(stats: stats)
        var pages: [Replayer.Page] = []
        for record in records {
            if let ended = replayer.feed(record) { pages.append(ended) }
            try afterRecord(replayer.recordCount)
        }
        pages += replayer.finish()
        return Replay(pages: pages.sorted { $0.start < $1.start }.map(\.snapshot), lastTab: replayer.lastTab)
    }

    /// Feeds records to a ``PrivacyStats`` one at a time, as they arrive, and hands over each
    /// page's final snapshot when the page ends, keeping none: what it holds is bounded by the
    /// tabs open at once, however long the recording (`trackerless stats --stream` replays
    /// recordings of millions of pages).
    ///
    /// A message for a tab that has no page yet starts one at the message's `page.url`; a live
    /// host always says when a page starts.
    package struct Replayer {
        /// A page that ended, and the index of the record that started it.
        package struct Page: Sendable {
            /// The index, from 0, of the record that started the page.
            package var start: Int
            /// The page's final snapshot.
            package var snapshot: PageSnapshot
        }

        /// How many of the recording's secrets are accepted at once when it is trusted: the
        /// last ones seen, as a host keeps those of the scripts it rendered last, not every
        /// secret a long recording ever carried. A message's own secret is accepted as it
        /// arrives, so a trusted recording is never rejected for its secret.
        package static let maxRecordedSecrets = 4

        package let stats: PrivacyStats
        /// Whether the well-formed secrets that messages carry are accepted as they arrive (the
        /// last ``maxRecordedSecrets`` of them): the recording is trusted (no secret was given).
        package let acceptsRecordedSecrets: Bool
        /// The records fed so far.
        package private(set) var recordCount = 0
        /// The tab of the last record, nil before the first.
        package private(set) var lastTab: TabID?
        /// Where each tab's current page started; a tab is absent until its first page and after its close.
        private var pageStarts: [TabID: Int] = [:]
        /// The recorded secrets accepted now, the one seen last first.
        private var recordedSecrets: [ScriptSecret] = []

        package init(stats: PrivacyStats, acceptsRecordedSecrets: Bool = false) {
            self.stats = stats
            self.acceptsRecordedSecrets = acceptsRecordedSecrets
        }

        /// Feeds one record; returns the page it ended (a navigation or a close in its tab).
        package mutating func feed(_ record: Record) -> Page? {
            let index = recordCount
            recordCount += 1
            lastTab = record.tab
            switch record.kind {
            case .navigate(let url):
                let ended = endPage(record.tab)
                stats.didCommitNavigation(tab: record.tab, url: url)
                pageStarts[record.tab] = index
                return ended
            case .message(let body, let pageURL):
                if acceptsRecordedSecrets, let secret = record.secret { accept(secret) }
                if pageStarts[record.tab] == nil, let pageURL {
                    stats.didCommitNavigation(tab: record.tab, url: pageURL)
                    pageStarts[record.tab] = index
                }
                _ = stats.receive(body, tab: record.tab)
                return nil
            case .close:
                let ended = endPage(record.tab)
                stats.closeTab(record.tab)
                return ended
            }
        }

        /// Ends the pages still open; returns them in the order they started.
        package mutating func finish() -> [Page] {
            pageStarts.sorted { $0.value < $1.value }.compactMap { endPage($0.key) }
        }

        private mutating func endPage(_ tab: TabID) -> Page? {
            guard let start = pageStarts.removeValue(forKey: tab) else { return nil }
            return Page(start: start, snapshot: stats.snapshot(tab: tab))
        }

        /// Accepts `secret`, the oldest accepted one making way once there are
        /// ``maxRecordedSecrets``.
        private mutating func accept(_ secret: ScriptSecret) {
            if let seen = recordedSecrets.firstIndex(of: secret) {
                // Already accepted: only its age changes, not what the statistics accept.
                recordedSecrets.insert(recordedSecrets.remove(at: seen), at: 0)
                return
            }
            recordedSecrets.insert(secret, at: 0)
            if recordedSecrets.count > Self.maxRecordedSecrets { recordedSecrets.removeLast() }
            stats.setSecrets(recordedSecrets)
        }
    }
}

extension StatsRecording.Record {
    /// The well-formed secret of a message record, if it has one.
    var secret: ScriptSecret? {
        guard case .message(let body, _) = kind,
            case .success(let message) = ScriptMessage.decode(body, acceptsSecret: { ScriptSecret(hex: $0) != nil })
        else { return nil }
        return ScriptSecret(hex: message.secret)
    }
}
