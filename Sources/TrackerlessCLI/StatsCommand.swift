import Foundation
import PrivacyStatsKit
import TrackerDataKit
import TrackerlessCore

/// `trackerless stats`: aggregates recorded script messages into privacy-dashboard snapshots.
enum StatsCommand {
    static let help = """
    Usage: trackerless stats --messages FILE.jsonl [--tds FILE] [--privacy-config FILE] [--allowlist FILE]
                             [--surrogates DIR|FILE] [--secret HEX]... [--html FILE] [--tab ID] [--output FILE]
                             [--store FILE] [--flush-every N] [--stream]

    Replays recorded messages of the blocking and inference scripts (message protocol v1) through the
    privacy statistics, classifying every request with the resolver, and writes one JSON object:
    {"schema": "trackerless-stats-report", "schemaVersion": 1, "pages": [dashboard snapshot, ...],
     "totals": {...}, "rejections": {reason: count}, "lines": N}
    "pages" holds each page's final snapshot, in the order the pages started.
    With --stream it writes JSON lines instead, as the recording arrives: each page's final snapshot
    when the page ends (a navigation or a close in its tab), flushed, then, at the end of the input,
    one line {"schema": "trackerless-stats-report", "schemaVersion": 1, "pages": [snapshots of the
    pages still open], "totals", "rejections", "lines"}. A host can pipe live messages in.
    The recording is read a line at a time, never whole: a line may have 1 MiB at most.

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
      --stream                write each page's snapshot as a JSON line when the page ends (above)
    Exit status: 0 success (rejected messages are counted, not errors), 1 unreadable input (a recording
    line that is not JSON or not a record is named FILE:LINE, with the column and byte in the line and
    what was expected there), 2 wrong usage.
    """

    static func run(_ arguments: [String]) throws -> Int32 {
        let options = try CommandLineArguments(
            arguments,
            valueOptions: BlocklistInputs.optionNames.union([
                "messages", "surrogates", "secret", "html", "tab", "output", "store", "flush-every",
            ]), flagOptions: ["stream"])
        if options.has("help") {
            Output.standardOutput(help)
            return 0
        }
        guard options.positionals.isEmpty else {
            throw UsageError("unexpected argument \"\(StatsRecordingError.bounded(options.positionals[0]))\"")
        }
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
        let store = try options["store"].map { path throws in try StatsStore(path: path) }
        for note in store?.recoveryNotes ?? [] { Output.standardError("warning: \(note)") }
        let stats = PrivacyStats(resolver: resolver, secrets: secrets, store: store)
        // Without --secret the recording is trusted: each message's secret is accepted as it comes.
        var replayer = StatsRecording.Replayer(stats: stats, acceptsRecordedSecrets: secrets.isEmpty)
        let isStreaming = options.has("stream")
        var output = options["output"].map { _ in [UInt8]() }
        func emit(_ value: JSONValue) {
            let line = Array((value.jsonString() + "\n").utf8)
            if output != nil { output?.append(contentsOf: line) } else { Output.write(line) }
        }
        try readRecords(messagesPath) { record in
            let ended = replayer.feed(record)
            if isStreaming { for snapshot in ended { emit(snapshot.jsonValue()) } }
            if store != nil, replayer.recordCount % flushEvery == 0 { try flush(stats, records: replayer.recordCount) }
        }
        let replay = replayer.finish()
        let snapshots = replay.pages
        if store != nil { try flush(stats, records: replayer.recordCount) }

        // Streamed, the pages already written are not repeated: the last line holds the open ones.
        let reportPages = isStreaming ? replay.openAtEnd : snapshots
        emit(.object(JSONObject([
            ("schema", .string("trackerless-stats-report")), ("schemaVersion", .number(1)),
            ("pages", .array(reportPages.map { $0.jsonValue() })),
            ("totals", stats.totals().jsonValue()),
            ("rejections", .object(JSONObject(stats.rejections().sorted { $0.key.rawValue < $1.key.rawValue }
                .map { ($0.key.rawValue, .number(Double($0.value))) }))),
            ("lines", .number(Double(replayer.recordCount))),
        ])))
        if let path = options["output"], let bytes = output {
            try FileIO.writeAtomically(bytes, to: path)
        }
        if let path = options["html"] {
            let tab = options["tab"].map { TabID($0) } ?? replay.lastTab
            let snapshot = snapshots.last { $0.tab == tab } ?? PageSnapshot.empty(tab: tab)
            try FileIO.writeAtomically(Array(DashboardHTML.render(snapshot).utf8), to: path)
        }
        return 0
    }

    /// The longest recording line read.
    static let maxLineBytes = 1 << 20

    /// Reads the recording at `path` ("-": standard input) a line at a time, calling `body` with
    /// each record as soon as its line has arrived.
    private static func readRecords(_ path: String, _ body: (StatsRecording.Record) throws -> Void) throws {
        let descriptor: Int32 = path == "-" ? 0 : open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw FileError(path: path, reason: String(cString: strerror(errno))) }
        defer { if descriptor != 0 { close(descriptor) } }
        var reader = LineReader(descriptor: descriptor, path: path, maxLineBytes: maxLineBytes)
        var lineNumber = 0
        while let line = try reader.next() {
            lineNumber += 1
            switch line {
            case .tooLong(let length):
                throw InputError("\(path):\(lineNumber): the line has \(length) bytes; the limit is \(maxLineBytes)")
            case .text(let bytes):
                if let record = try StatsRecording.record(line: bytes, file: path, lineNumber: lineNumber) { try body(record) }
            }
        }
    }

    private static func flush(_ stats: PrivacyStats, records: Int) throws {
        try stats.flush()
        let totals = stats.totals().lifetime
        Output.standardError("flushed \(records) \(totals.pages) \(totals.trackersBlocked)")
    }
}
