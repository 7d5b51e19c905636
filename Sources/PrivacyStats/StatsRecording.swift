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
            guard line.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) else { continue }
            let value: JSONValue
            do throws(JSONSyntaxError) {
                value = try JSONParser.parse(Array(line))
            } catch {
                throw .syntax(error, file: file, line: lineNumber)
            }
            guard case .object(let object) = value else {
                throw .invalidRecord("expected a JSON object, found \(JSONNode(value).typeName)", file: file, line: lineNumber)
            }
            records.append(try Self.record(object, file: file, line: lineNumber))
        }
    }

    private static func record(_ object: JSONObject, file: String, line: Int) throws(StatsRecordingError) -> Record {
        var tab = TabID("1")
        if let value = object["tab"] {
            guard case .string(let name) = value else {
                throw .invalidRecord("\"tab\" must be a string, found \(JSONNode(value).typeName)", file: file, line: line)
            }
            tab = TabID(name)
        }
        if case .string(let url)? = object["navigate"] { return Record(tab: tab, kind: .navigate(url)) }
        if case .bool(true)? = object["close"] { return Record(tab: tab, kind: .close) }
        if let message = object["message"] { return Record(tab: tab, kind: messageKind(message)) }
        if object["trackerless"] != nil { return Record(tab: tab, kind: messageKind(.object(object))) }
        throw .invalidRecord(
            "expected \"navigate\", \"message\", \"close\" or a message with \"trackerless\"", file: file, line: line)
    }

    /// A message record; its body is checked by the statistics as a host would, not here.
    private static func messageKind(_ value: JSONValue) -> Record.Kind {
        var object: JSONObject?
        let body: MessageBody
        if case .string(let text) = value {
            body = .json(text)
            if case .object(let parsed)? = try? JSONParser.parse(text) { object = parsed }
        } else {
            // Serialized again, so the size limit applies as it does to a body a web view posts.
            body = .json(value.jsonString())
            if case .object(let parsed) = value { object = parsed }
        }
        var pageURL: String?
        if case .object(let page)? = object?["page"], case .string(let url)? = page["url"] { pageURL = url }
        return .message(body, pageURL: pageURL)
    }

    /// The well-formed secrets the recording's messages carry.
    package func secrets() -> [MessageSecret] {
        var secrets: Set<String> = []
        for record in records {
            guard case .message(let body, _) = record.kind,
                case .success(let message) = ScriptMessage.decode(body, acceptsSecret: { MessageSecret(hex: $0) != nil })
            else { continue }
            secrets.insert(message.secret)
        }
        return secrets.sorted().compactMap { MessageSecret(hex: $0) }
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
        var pages: [(start: Int, snapshot: PageSnapshot)] = []
        // Where each tab's current page started; a tab is absent until its first page.
        var pageStarts: [TabID: Int] = [:]
        func finishPage(_ tab: TabID) {
            if let start = pageStarts[tab] { pages.append((start, stats.snapshot(tab: tab))) }
        }
        for (index, record) in records.enumerated() {
            switch record.kind {
            case .navigate(let url):
                finishPage(record.tab)
                stats.didStartNavigation(tab: record.tab, url: url)
                pageStarts[record.tab] = index
            case .message(let body, let pageURL):
                if pageStarts[record.tab] == nil, let pageURL {
                    stats.didStartNavigation(tab: record.tab, url: pageURL)
                    pageStarts[record.tab] = index
                }
                _ = stats.receive(body, tab: record.tab)
            case .close:
                finishPage(record.tab)
                stats.closeTab(record.tab)
                pageStarts[record.tab] = nil
            }
            try afterRecord(index + 1)
        }
        for tab in pageStarts.keys.sorted() { finishPage(tab) }
        return Replay(pages: pages.sorted { $0.start < $1.start }.map(\.snapshot), lastTab: records.last?.tab)
    }
}
