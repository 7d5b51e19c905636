import Foundation
import TrackerlessCore
import TrackerlessRuntime

/// `trackerless fetch`: downloads the blocklist and the privacy configuration into a directory
/// for a build (the app's embedded copies), with the runtime updater's rules.
enum FetchCommand {
    static let help = """
    Usage: trackerless fetch --tds URL [--config URL] --output DIR [options]

    Downloads the Tracker Radar blocklist and the privacy configuration into DIR (tds.json,
    privacy-config.json) with the rules of the SDK's updater (ProtectionUpdater): each request
    conditional on the ETag and Last-Modified kept in DIR/downloads.json, every input downloaded
    and valid (it decodes; a blocklist lists trackers; the pinned SHA-256 if given) before any file
    in DIR changes, each file replaced whole. One line per input, then the outcome, go to standard
    output.
      --tds URL               where the blocklist comes from (http or https)
      --tds-sha256 HEX        the SHA-256 the blocklist must have
      --config URL            where the privacy configuration comes from
      --config-sha256 HEX     the SHA-256 the configuration must have
      --output DIR            where the files go; created when missing
      --timeout SECONDS       one try of one download, redirects included (default 300)
      --max-bytes N           the largest body accepted; a larger one is refused while it is read
                              (default 33554432)
      --attempts N            tries of a download that failed in a way that may pass: no
                              connection, a timeout, a cut body, HTTP 408, 429, 5xx (default 3)
      --retry-delay SECONDS   before the second try; each later one waits twice as long (default 2)
      --max-redirects N       redirects followed (default 5); https to http never is
      --same-origin           follow no redirect to another origin
      --json                  print the report as one JSON object instead
    Exit status: 0 updated or unchanged, 1 refused (DIR unchanged; the message names the input,
    the URL, the HTTP status and why), 2 wrong usage.
    """

    static func run(_ arguments: [String]) throws -> Int32 {
        let options = try CommandLineArguments(
            arguments,
            valueOptions: ["tds", "tds-sha256", "config", "config-sha256", "output", "timeout", "max-bytes", "attempts", "retry-delay", "max-redirects"],
            flagOptions: ["same-origin", "json"])
        if options.has("help") {
            Output.standardOutput(help)
            return 0
        }
        guard options.positionals.isEmpty else { throw UsageError("unexpected argument \"\(options.positionals[0].excerpt())\"") }
        guard let tds = options["tds"] else { throw UsageError("fetch needs --tds URL") }
        guard let output = options["output"] else { throw UsageError("fetch needs --output DIR") }
        let sources = UpdateSources(
            trackerData: RemoteDocument(url: try url(tds, option: "tds"), sha256: options["tds-sha256"]),
            privacyConfiguration: try options["config"].map {
                RemoteDocument(url: try url($0, option: "config"), sha256: options["config-sha256"])
            })
        if options["config-sha256"] != nil && options["config"] == nil { throw UsageError("--config-sha256 needs --config URL") }
        let settings = try policy(options)
        let downloader: InputDownloader
        do throws(UpdateError) {
            downloader = try InputDownloader(sources: sources, policy: settings)
        } catch {
            throw UsageError(error.description)
        }
        let report = downloader.fetch(into: DownloadStore(directory: output))
        if options.has("json") {
            Output.standardOutput(report.jsonValue.jsonString())
        } else {
            for input in report.inputs { Output.standardOutput(line(input)) }
            let files = report.inputs.map { "\(output)/\(DownloadStore.fileName(of: $0.input))" }.joined(separator: ", ")
            switch report.outcome {
            case .updated: Output.standardOutput("updated: \(files)")
            case .unchanged: Output.standardOutput("unchanged: \(files)")
            case .refused: Output.standardOutput("refused: nothing in \(output) changed")
            }
        }
        if let error = report.error { Output.standardError("trackerless fetch: \(error)") }
        return report.outcome == .refused ? 1 : 0
    }

    /// One input's line: `tds: URL: 200, 123 bytes, sha256 …: downloaded`.
    static func line(_ input: UpdateReport.Input) -> String {
        var parts = ["\(input.input): \(input.url)"]
        if let finalURL = input.finalURL { parts[0] += " (from \(finalURL))" }
        var facts: [String] = [input.status.map { "HTTP \($0)" } ?? "no answer"]
        if let bytes = input.bytes { facts.append("\(bytes) bytes") }
        if let sha256 = input.sha256 { facts.append("sha256 \(sha256)") }
        if input.attempts > 1 { facts.append("\(input.attempts) tries") }
        parts.append(facts.joined(separator: ", "))
        parts.append(input.error.map { "failed: \($0.reasonName)" } ?? input.result.rawValue)
        return parts.joined(separator: ": ")
    }

    private static func url(_ text: String, option: String) throws -> URL {
        guard let url = URL(string: text) else { throw UsageError("--\(option) \"\(text.excerpt())\" is not a URL") }
        return url
    }

    /// The default policy with the options' settings.
    private static func policy(_ options: CommandLineArguments) throws -> UpdatePolicy {
        var policy = UpdatePolicy()
        func number(_ name: String) throws -> Double? {
            guard let text = options[name] else { return nil }
            guard let value = Double(text), value.isFinite, value >= 0 else {
                throw UsageError("--\(name) \"\(text.excerpt())\" is not a number of seconds from 0")
            }
            return value
        }
        func count(_ name: String, from minimum: Int) throws -> Int? {
            guard let text = options[name] else { return nil }
            guard let value = Int(text), value >= minimum else { throw UsageError("--\(name) \"\(text.excerpt())\" is not a whole number from \(minimum)") }
            return value
        }
        if let timeout = try number("timeout") { policy.timeout = timeout }
        if let delay = try number("retry-delay") { policy.retryDelay = delay }
        if let bytes = try count("max-bytes", from: 1) { policy.maxBytes = bytes }
        if let attempts = try count("attempts", from: 1) { policy.attempts = attempts }
        if let redirects = try count("max-redirects", from: 0) { policy.maxRedirects = redirects }
        if options.has("same-origin") { policy.allowsCrossOriginRedirects = false }
        return policy
    }
}
