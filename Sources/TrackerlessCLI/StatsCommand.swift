import Foundation
import PrivacyStats
import TrackerData
import TrackerlessCore

/// `trackerless stats`: aggregates recorded script messages into privacy-dashboard snapshots.
enum StatsCommand {
    static let help = """
    Usage: trackerless stats --messages FILE.jsonl [--tds FILE] [--privacy-config FILE] [--allowlist FILE]
                             [--surrogates DIR|FILE] [--secret HEX]... [--html FILE] [--tab ID] [--output FILE]
                             [--store FILE] [--flush-every N]

    Replays recorded messages of the blocking and inference scripts (message protocol v1) through the
    privacy statistics, classifying every request with the resolver, and writes one JSON object:
    {"schema": "trackerless-stats-report", "schemaVersion": 1, "pages": [dashboard snapshot, ...],
     "totals": {...}, "rejections": {reason: count}, "lines": N}
    "pages" holds each page's final snapshot, in the order the pages started.

    The recording (--messages) is JSON lines, one record a line; blank lines are skipped:
      {"tab": "1", "navigate": "https://site.example/"}  a main-frame navigation committed in tab 1:
                                                          a new page
      {"tab": "1", "message": {...}}                      a message body (an object, or a string of JSON
                                                          as the Android bridge posts it) from tab 1
      {"tab": "1", "close": true}                         the tab closed
      {"trackerless": 1, ...}                             a bare message, from tab "1"
    A message for a tab that has no page yet starts one at the message's page.url.

      --messages FILE         the recording ("-" reads standard input)
      --tds FILE              Tracker Radar blocklist (tds.json); without it, the bundled sample
      --privacy-config FILE   DuckDuckGo privacy configuration
      --allowlist FILE        user allowlist: a JSON array of sites where protection is off
      --surrogates DIR|FILE   surrogates as `scripts` reads them (default: the bundled ones, which
                              `scripts` embeds); surrogate events count only for surrogates it has
      --secret HEX            a render secret to accept (repeatable); without it, the secrets that the
                              recording's messages carry are accepted (the recording is trusted)
      --html FILE             also write the HTML privacy dashboard of the last page of --tab
      --tab ID                the tab whose dashboard --html shows (default: the tab of the last record)
      --output FILE           write the JSON there instead of standard output
      --store FILE            keep totals in this file (and FILE.journal), crash-safe, adding to what it holds
      --flush-every N         with --store: make totals durable every N records (default: at the end);
                              each flush prints "flushed <records> <pages> <blocked>" on standard error
    Exit status: 0 success (rejected messages are counted, not errors), 1 unreadable input, 2 wrong usage.
    """

    static func run(_ arguments: [String]) throws -> Int32 {
        let options = try CommandLineArguments(
            arguments,
            valueOptions: BlocklistInputs.optionNames.union([
                "messages", "surrogates", "secret", "html", "tab", "output", "store", "flush-every",
            ]))
        if options.has("help") {
            Output.standardOutput(help)
            return 0
        }
        guard options.positionals.isEmpty else { throw UsageError("unexpected argument \"\(options.positionals[0])\"") }
        guard let messagesPath = options["messages"] else { throw UsageError("stats needs --messages FILE") }
        var flushEvery = Int.max
        if let text = options["flush-every"] {
            guard let number = Int(text), number >= 1 else { throw UsageError("--flush-every needs a positive number") }
            guard options["store"] != nil else { throw UsageError("--flush-every needs --store") }
            flushEvery = number
        }
        var secrets: [MessageSecret] = []
        for text in options.repeatedOptions["secret"] ?? [] {
            guard let secret = MessageSecret(hex: text) else { throw UsageError("--secret needs 32 hexadecimal digits") }
            secrets.append(secret)
        }

        let resolver = try BlocklistInputs(options).resolver(surrogatesPath: options["surrogates"])
        let bytes = messagesPath == "-" ? FileIO.readStandardInput() : try FileIO.read(path: messagesPath)
        let records = try StatsRecording.records(in: bytes, file: messagesPath)
        if secrets.isEmpty { secrets = StatsRecording.secrets(in: records) }

        let store = try options["store"].map { path throws in try StatsStore(path: path) }
        for note in store?.recoveryNotes ?? [] { Output.standardError("warning: \(note)") }
        let stats = PrivacyStats(resolver: resolver, secrets: secrets, store: store)
        var pages: [(start: Int, snapshot: PageSnapshot)] = []
        var lastTab: TabID?
        var pageStarts: [TabID: Int] = [:]
        var navigated: Set<TabID> { Set(pageStarts.keys) }
        func finishPage(_ tab: TabID) {
            if let start = pageStarts[tab] { pages.append((start, stats.snapshot(tab: tab))) }
        }
        for (index, record) in records.enumerated() {
            lastTab = record.tab
            switch record.kind {
            case .navigate(let url):
                finishPage(record.tab)
                stats.didStartNavigation(tab: record.tab, url: url)
                pageStarts[record.tab] = index
            case .message(let body, let pageURL):
                if !navigated.contains(record.tab), let pageURL {
                    stats.didStartNavigation(tab: record.tab, url: pageURL)
                    pageStarts[record.tab] = index
                }
                _ = stats.receive(body, tab: record.tab)
            case .close:
                finishPage(record.tab)
                stats.closeTab(record.tab)
                pageStarts[record.tab] = nil
            }
            if store != nil, (index + 1) % flushEvery == 0 { try flush(stats, records: index + 1) }
        }
        for tab in navigated.sorted() { finishPage(tab) }
        let snapshots = pages.sorted { $0.start < $1.start }.map(\.snapshot)
        if store != nil { try flush(stats, records: records.count) }

        let report = JSONValue.object(JSONObject([
            ("schema", .string("trackerless-stats-report")), ("schemaVersion", .number(1)),
            ("pages", .array(snapshots.map { $0.jsonValue() })),
            ("totals", stats.totals().jsonValue()),
            ("rejections", .object(JSONObject(stats.rejections().sorted { $0.key.rawValue < $1.key.rawValue }
                .map { ($0.key.rawValue, .number(Double($0.value))) }))),
            ("lines", .number(Double(records.count))),
        ]))
        let json = Array((report.jsonString() + "\n").utf8)
        if let path = options["output"] {
            try FileIO.writeAtomically(json, to: path)
        } else {
            Output.write(json)
        }
        if let path = options["html"] {
            let tab = options["tab"].map { TabID($0) } ?? lastTab
            let snapshot = snapshots.last { $0.tab == tab } ?? PageSnapshot.empty(tab: tab)
            try FileIO.writeAtomically(Array(DashboardHTML.render(snapshot).utf8), to: path)
        }
        return 0
    }

    private static func flush(_ stats: PrivacyStats, records: Int) throws {
        try stats.flush()
        let totals = stats.totals().lifetime
        Output.standardError("flushed \(records) \(totals.pages) \(totals.trackersBlocked)")
    }
}

/// The recording format of `trackerless stats --messages`: JSON lines of navigations, messages
/// and tab closes (see ``StatsCommand/help``).
enum StatsRecording {
    struct Record {
        enum Kind {
            case navigate(String)
            /// The body, and the page URL it names, if it is readable.
            case message(MessageBody, pageURL: String?)
            case close
        }

        var tab: TabID
        var kind: Kind
    }

    static func records(in bytes: [UInt8], file: String) throws(InputError) -> [Record] {
        var records: [Record] = []
        for (index, line) in bytes.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() {
            guard line.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) else { continue }
            let place = "\(file):\(index + 1)"
            guard case .object(let object)? = try? JSONParser.parse(Array(line)) else {
                throw InputError("\(place): expected a JSON object")
            }
            var tab = TabID("1")
            if let value = object["tab"] {
                guard case .string(let name) = value else { throw InputError("\(place): \"tab\" must be a string") }
                tab = TabID(name)
            }
            if case .string(let url)? = object["navigate"] {
                records.append(Record(tab: tab, kind: .navigate(url)))
            } else if case .bool(true)? = object["close"] {
                records.append(Record(tab: tab, kind: .close))
            } else if let message = object["message"] {
                records.append(Record(tab: tab, kind: messageKind(message)))
            } else if object["trackerless"] != nil {
                records.append(Record(tab: tab, kind: messageKind(.object(object))))
            } else {
                throw InputError("\(place): expected \"navigate\", \"message\", \"close\" or a message with \"trackerless\"")
            }
        }
        return records
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
    static func secrets(in records: [Record]) -> [MessageSecret] {
        var secrets: Set<String> = []
        for record in records {
            guard case .message(let body, _) = record.kind,
                case .success(let message) = ScriptMessage.decode(body, acceptsSecret: { MessageSecret(hex: $0) != nil })
            else { continue }
            secrets.insert(message.secret)
        }
        return secrets.sorted().compactMap { MessageSecret(hex: $0) }
    }
}
