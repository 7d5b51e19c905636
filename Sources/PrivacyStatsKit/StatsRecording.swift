import TrackerlessCore

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
        /// The pages still open at the end of the recording, in the order they started (also in
        /// ``pages``).
        package var openAtEnd: [PageSnapshot] = []
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
    package func secrets() -> [MessageSecret] {
        Array(Set(records.compactMap(\.secret).map(\.hex))).sorted().compactMap { MessageSecret(hex: $0) }
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
        for record in records {
            replayer.feed(record)
            try afterRecord(replayer.recordCount)
        }
        return replayer.finish()
    }

    /// Feeds records to a ``PrivacyStats`` one at a time, as they arrive, and says which pages
    /// each one ended.
    package struct Replayer {
        package let stats: PrivacyStats
        /// Whether every well-formed secret a message carries is accepted, as it arrives: the
        /// recording is trusted (no secret was given).
        package let acceptsRecordedSecrets: Bool
        /// The records fed so far.
        package private(set) var recordCount = 0
        private var pages: [(start: Int, snapshot: PageSnapshot)] = []
        // Where each tab's current page started; a tab is absent until its first page.
        private var pageStarts: [TabID: Int] = [:]
        private var acceptedSecrets: Set<String> = []
        private var lastTab: TabID?

        package init(stats: PrivacyStats, acceptsRecordedSecrets: Bool = false, secrets: [MessageSecret] = []) {
            self.stats = stats
            self.acceptsRecordedSecrets = acceptsRecordedSecrets
            acceptedSecrets = Set(secrets.map(\.hex))
        }

        /// Feeds one record; returns the snapshots of the pages it ended (a navigation or a close
        /// in their tab), for a reader that writes them as they end.
        @discardableResult
        package mutating func feed(_ record: Record) -> [PageSnapshot] {
            let index = recordCount
            recordCount += 1
            lastTab = record.tab
            var ended: [PageSnapshot] = []
            switch record.kind {
            case .navigate(let url):
                ended += finishPage(record.tab)
                stats.didStartNavigation(tab: record.tab, url: url)
                pageStarts[record.tab] = index
            case .message(let body, let pageURL):
                if acceptsRecordedSecrets, let secret = record.secret, acceptedSecrets.insert(secret.hex).inserted {
                    stats.setSecrets(acceptedSecrets.sorted().compactMap { MessageSecret(hex: $0) })
                }
                if pageStarts[record.tab] == nil, let pageURL {
                    stats.didStartNavigation(tab: record.tab, url: pageURL)
                    pageStarts[record.tab] = index
                }
                _ = stats.receive(body, tab: record.tab)
            case .close:
                ended += finishPage(record.tab)
                stats.closeTab(record.tab)
                pageStarts[record.tab] = nil
            }
            return ended
        }

        /// Ends the pages still open and returns every page's final snapshot, in the order the
        /// pages started.
        package mutating func finish() -> Replay {
            let open = pageStarts.sorted { $0.value < $1.value }.flatMap { finishPage($0.key) }
            pageStarts = [:]
            return Replay(pages: pages.sorted { $0.start < $1.start }.map(\.snapshot), lastTab: lastTab, openAtEnd: open)
        }

        private mutating func finishPage(_ tab: TabID) -> [PageSnapshot] {
            guard let start = pageStarts[tab] else { return [] }
            let snapshot = stats.snapshot(tab: tab)
            pages.append((start, snapshot))
            return [snapshot]
        }
    }
}

extension StatsRecording.Record {
    /// The well-formed secret of a message record, if it has one.
    var secret: MessageSecret? {
        guard case .message(let body, _) = kind,
            case .success(let message) = ScriptMessage.decode(body, acceptsSecret: { MessageSecret(hex: $0) != nil })
        else { return nil }
        return MessageSecret(hex: message.secret)
    }
}
