import Foundation
import PrivacyStatsKit
import TrackerDataKit
import TrackerlessCore
import TrackerlessRuntime

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
    pages still open], "totals", "rejections", "lines"}. A host can pipe live messages in, and memory
    does not grow with the recording: a page is dropped once written (--output too is written as it
    goes, into a temporary file that replaces FILE at the end; a device or FIFO is written directly).
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
      --secret HEX            a render secret to accept (repeatable); without it, each message's
                              secret is accepted as it arrives (the recording is trusted), and only
                              the last \(StatsRecording.Replayer.maxRecordedSecrets) distinct ones are kept, as a host keeps those of the
                              scripts it rendered last: memory stays bounded however many it carries
      --html FILE             also write the HTML privacy dashboard of the last page of --tab
      --tab ID                the tab whose dashboard --html shows (default: the tab of the last record)
      --output FILE           write the JSON there instead of standard output
      --store FILE            keep totals in this file (and FILE.journal), crash-safe, adding to what it holds
      --flush-every N         with --store: make totals durable every N records (default: at the end);
                              each flush prints "flushed <records> <pages> <blocked>" on standard error
      --stream                write each page's snapshot as a JSON line when the page ends (above)
    A recording line that is not JSON or not a record is named on standard error as FILE:LINE, with the
    column and byte in the line and what was expected there, and skipped: the lines before and after it
    are counted as usual, and the snapshots, totals, --store and --html all hold every good line.
    Exit status: 0 success (rejected messages are counted, not errors), 1 a recording line skipped or the
    recording unreadable (the output is still written, from the lines read), 2 wrong usage.
    """

    static func run(_ arguments: [String]) throws -> Int32 {
        let options = try CommandLineArguments(
            arguments,
            valueOptions: ProtectionInputs.optionNames.union([
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
        var secrets: [ScriptSecret] = []
        for text in options.repeatedOptions["secret"] ?? [] {
            guard let secret = ScriptSecret(hex: text) else { throw UsageError("--secret needs 32 hexadecimal digits") }
            secrets.append(secret)
        }

        let resolver = try ProtectionInputs(options, surrogates: try ProtectionInputs.surrogates(options)).parsedForCommand().resolver()
        let store = try options["store"].map { path throws in try StatsStore(path: path) }
        for note in store?.recoveryNotes ?? [] { Output.standardError("warning: \(note)") }
        let stats = PrivacyStats(resolver: resolver, secrets: secrets, store: store)
        // Without --secret the recording is trusted: each message's secret is accepted as it comes.
        var replayer = StatsRecording.Replayer(stats: stats, acceptsRecordedSecrets: secrets.isEmpty)
        let isStreaming = options.has("stream")
        let output = try OutputFile(path: options["output"])
        let htmlTab = options["tab"].map { TabID($0) }
        // Without --stream the report lists every page; streamed, a page is written when it ends
        // and dropped, so memory does not grow with the recording.
        var endedPages: [StatsRecording.Replayer.Page] = []
        // The last page that ended (of --tab, if given): what --html shows for a tab closed at the end.
        var lastEnded: PageSnapshot?
        let isComplete = try readRecords(messagesPath) { record in
            if let page = replayer.feed(record) {
                if isStreaming { try output.write(line(page.snapshot.jsonValue())) } else { endedPages.append(page) }
                if htmlTab == nil || page.snapshot.tab == htmlTab { lastEnded = page.snapshot }
            }
            if store != nil, replayer.recordCount % flushEvery == 0 { try flush(stats, records: replayer.recordCount) }
        }
        // Whatever was read is counted, written and saved alike, bad lines or not.
        let openAtEnd = replayer.finish()
        if store != nil { try flush(stats, records: replayer.recordCount) }

        // Streamed, the pages already written are not repeated: the last line holds the open ones.
        let reportPages = isStreaming ? openAtEnd : (endedPages + openAtEnd).sorted { $0.start < $1.start }
        try output.write(line(.object(JSONObject([
            ("schema", .string("trackerless-stats-report")), ("schemaVersion", .number(1)),
            ("pages", .array(reportPages.map { $0.snapshot.jsonValue() })),
            ("totals", stats.totals().jsonValue()),
            ("rejections", .object(JSONObject(stats.rejections().sorted { $0.key.rawValue < $1.key.rawValue }
                .map { ($0.key.rawValue, .number(Double($0.value))) }))),
            ("lines", .number(Double(replayer.recordCount))),
        ]))))
        try output.commit()
        if let path = options["html"] {
            let tab = htmlTab ?? replayer.lastTab
            let snapshot = openAtEnd.last { $0.snapshot.tab == tab }?.snapshot
                ?? lastEnded.flatMap { $0.tab == tab ? $0 : nil } ?? PageSnapshot.empty(tab: tab)
            try OutputFile.write(Array(DashboardHTML.render(snapshot).utf8), to: path)
        }
        return isComplete ? 0 : 1
    }

    private static func line(_ value: JSONValue) -> [UInt8] {
        Array((value.jsonString() + "\n").utf8)
    }

    /// The longest recording line read.
    static let maxLineBytes = 1 << 20

    /// Reads the recording at `path` ("-": standard input) a line at a time, calling `body` with
    /// each record as soon as its line has arrived. A line that is not a record is named on
    /// standard error (FILE:LINE and what is wrong) and skipped, and so is the rest of the input
    /// when reading fails: the records before and after a bad line count as usual.
    ///
    /// - Returns: whether every line was read and was a record (or blank).
    private static func readRecords(_ path: String, _ body: (StatsRecording.Record) throws -> Void) throws -> Bool {
        let descriptor: Int32 = path == "-" ? 0 : open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw FileError(path: path, reason: String(cString: strerror(errno))) }
        defer { if descriptor != 0 { close(descriptor) } }
        var reader = LineReader(descriptor: descriptor, path: path, maxLineBytes: maxLineBytes)
        var isComplete = true
        let isRead = try JSONLines.forEachLine(of: &reader) { lineNumber, line in
            let record: StatsRecording.Record?
            do {
                record = try StatsRecording.record(line: try line.get(), file: path, lineNumber: lineNumber)
            } catch let error as InputError {
                Output.standardError("trackerless: \(path):\(lineNumber): \(error)")
                isComplete = false
                return
            } catch {
                Output.standardError("trackerless: \(error)")
                isComplete = false
                return
            }
            if let record { try body(record) }
        }
        return isComplete && isRead
    }

    private static func flush(_ stats: PrivacyStats, records: Int) throws {
        try stats.flush()
        let totals = stats.totals().lifetime
        Output.standardError("flushed \(records) \(totals.pages) \(totals.trackersBlocked)")
    }
}
