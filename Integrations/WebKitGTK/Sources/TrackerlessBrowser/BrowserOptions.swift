import Foundation
import TrackerlessRuntime
import TrackerlessWebKitGTK

/// The command line of `trackerless-browser`.
struct BrowserOptions {
    static let usage = """
    Usage: trackerless-browser [--mode rules|engine|script] [--tds FILE] [--privacy-config FILE]
                               [--allowlist FILE] [--https-filter DIR] [--cache DIR] [URL]
           trackerless-browser --headless [--mode rules|engine|script] [--tds FILE] [--privacy-config FILE]
                               [--allowlist FILE] [--https-filter DIR] [--cache DIR] [--proxy HOST:PORT]
                               --snapshots OUT.jsonl
                               [--protection-off SITE | --protection-on SITE]... URL... [--click SELECTOR]...

    A WebKitGTK browser protected by Trackerless: the rule lists, the blocking and inference scripts,
    the navigation protections of the privacy configuration (tracking parameters, AMP links, https
    upgrades), Click-to-Load placeholders, and the privacy dashboard of the current tab.
      --mode MODE            where requests are blocked: rules (WebKit's content filters, the default),
                             engine (the compiled engine in the web-process extension's send-request,
                             a content filter for WebSocket handshakes only; SharedWorker, service
                             workers and preconnect are off), script (the blocking script alone,
                             blocking in script: it cannot stop the loads of the HTML parser)
      --web-process-extension FILE
                             the extension library (default: libTrackerlessWebProcessExtension.so
                             next to this executable); it sets Sec-GPC and trims Referer in every mode
      --tds FILE             Tracker Radar blocklist (tds.json); without it, the bundled sample
      --privacy-config FILE  DuckDuckGo privacy configuration
      --allowlist FILE       user allowlist: a JSON array of sites where protection is off
      --https-filter DIR     DuckDuckGo's Smarter Encryption files (https_bloomfilter.bin,
                             https_bloomfilter_spec.json, https_allowlist.json if present): the
                             navigations it names go to https
      --cache DIR            the protection set's cache, WebKit's compiled lists, the site toggles and
                             the statistics' totals (default: $XDG_CACHE_HOME/trackerless-browser)
      --headless             load each URL in turn in one web view, wait until the page has loaded
                             and its reports have settled, and write one dashboard snapshot per URL
                             as a JSON line (the snapshot schema of `trackerless stats`) to --snapshots;
                             exit 0 when every page loaded
      --proxy HOST:PORT      send all traffic, https included (CONNECT), through this HTTP proxy;
                             certificate errors are ignored (headless mode only, for tests)
      --protection-off SITE  turn protection off for SITE (an exact host), as the window's switch
      --protection-on SITE   does, persisted in the cache; in --headless, between URLs, it takes
                             effect from the next URL's navigation
      --click SELECTOR       in --headless, once the URL before it has settled, click the first
                             element matching the CSS selector as the user would (a real pointer
                             event through Xvfb's XTEST), then wait for the page to settle again
    Exit status: 0 success, 1 a page or an input failed, 2 wrong usage.
    """

    var inputs = ProtectionInputs.sample
    var cacheDirectory: String
    var headless = false
    var proxy: (host: String, port: Int)?
    var snapshotsPath: String?
    var urls: [String] = []
    var mode = RequestBlocking.contentFilters
    var extensionPath = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        .appendingPathComponent(WebProcessExtension.libraryName).path
    /// Site toggles, by the index of the URL they come before (`urls.count`: after the last).
    var toggles: [Int: [(enabled: Bool, site: String)]] = [:]
    /// Clicks, by the index of the URL they follow.
    var clicks: [Int: [String]] = [:]

    struct UsageError: Error, CustomStringConvertible {
        let description: String
    }

    init(_ arguments: [String]) throws {
        let environment = ProcessInfo.processInfo.environment
        let cacheHome = environment["XDG_CACHE_HOME"] ?? ((environment["HOME"] ?? "/tmp") + "/.cache")
        cacheDirectory = cacheHome + "/trackerless-browser"
        var remaining = arguments[...]
        func value(_ option: String) throws -> String {
            guard let value = remaining.popFirst() else { throw UsageError(description: "\(option) needs a value") }
            return value
        }
        while let argument = remaining.popFirst() {
            switch argument {
            case "--tds": inputs.trackerData = .file(try value(argument))
            case "--privacy-config": inputs.privacyConfiguration = .file(try value(argument))
            case "--allowlist": inputs.userAllowlist = .file(try value(argument))
            case "--https-filter": inputs.httpsFilterDirectory = try value(argument)
            case "--cache": cacheDirectory = try value(argument)
            case "--web-process-extension": extensionPath = try value(argument)
            case "--mode":
                let name = try value(argument)
                guard let mode = RequestBlocking(rawValue: name) else {
                    throw UsageError(description: "--mode takes rules, engine or script, not \"\(name.prefix(200))\"")
                }
                self.mode = mode
            case "--headless": headless = true
            case "--snapshots": snapshotsPath = try value(argument)
            case "--proxy":
                let text = try value(argument)
                guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]), (1...65535).contains(port) else {
                    throw UsageError(description: "--proxy takes HOST:PORT, not \"\(text.prefix(200))\"")
                }
                proxy = (String(text[..<colon]), port)
            case "--protection-off", "--protection-on":
                toggles[urls.count, default: []].append((argument == "--protection-on", try value(argument)))
            case "--click":
                guard !urls.isEmpty else { throw UsageError(description: "--click follows the URL whose page it clicks") }
                clicks[urls.count - 1, default: []].append(try value(argument))
            case "--help", "-h": throw UsageError(description: "")
            default:
                guard !argument.hasPrefix("--") else { throw UsageError(description: "unknown option \(argument.prefix(200))") }
                urls.append(argument)
            }
        }
        if mode == .blockingScript { inputs.scriptSettings.blockInScript = true }
        // sendBeacon and keepalive fetches: the blocking script decides them in every mode.
        // send-request never sees them, and a page left for a site whose protection is off loses
        // its rule lists before WebKit decides them (even when they are removed only when the next
        // page commits).
        inputs.scriptSettings.blockKeepalive = true
        // The lists are built for the WebKitGTK that runs them.
        inputs.webKit = .runningWebKitGTK
        if headless {
            guard snapshotsPath != nil else { throw UsageError(description: "--headless needs --snapshots OUT.jsonl") }
            guard !urls.isEmpty else { throw UsageError(description: "--headless needs at least one URL") }
        } else {
            guard proxy == nil, snapshotsPath == nil, clicks.isEmpty else {
                throw UsageError(description: "--proxy, --snapshots and --click go with --headless")
            }
            guard urls.count <= 1 else { throw UsageError(description: "the window opens one URL") }
        }
    }
}
