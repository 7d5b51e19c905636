import Foundation
import Testing

/// The built `trackerless-browser` and the loopback site proxy, run as child processes.
enum BrowserProcess {
    /// This package's root (Integrations/WebKitGTK).
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// `<repository>/../shared/data`.
    static let sharedData = packageRoot.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("shared/data")

    /// `.build/<configuration>/trackerless-browser`, next to the test runner.
    static let executable: URL = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        .deletingLastPathComponent().appendingPathComponent("trackerless-browser")

    /// Whether WebKitGTK, Xvfb and the shared blocklist are there, or required
    /// (`TRACKERLESS_REQUIRE_WEBKIT=1`, `TRACKERLESS_REQUIRE_SHARED_DATA=1`: then they run and fail).
    static var canRun: Bool {
        let environment = ProcessInfo.processInfo.environment
        let required = environment["TRACKERLESS_REQUIRE_WEBKIT"] == "1" || environment["TRACKERLESS_REQUIRE_SHARED_DATA"] == "1"
        let present = FileManager.default.fileExists(atPath: "/usr/bin/xvfb-run")
            && FileManager.default.fileExists(atPath: sharedData.appendingPathComponent("tds/apple-tds.json").path)
        return present || required
    }

    /// Whether Xvfb is there (or WebKit is required): enough for tests that use the bundled
    /// sample tds and no shared file.
    static var canRunWithoutSharedData: Bool {
        ProcessInfo.processInfo.environment["TRACKERLESS_REQUIRE_WEBKIT"] == "1"
            || FileManager.default.fileExists(atPath: "/usr/bin/xvfb-run")
    }

    /// Ends `pid` and every process under it (xvfb-run's Xvfb and browser, WebKit's helpers):
    /// SIGKILL, which no child can ignore or have blocked, children first found, then the parent.
    /// A test ends every process it starts: `terminate()` on xvfb-run, a shell script, left the
    /// browser running after the suite.
    static func killTree(_ pid: Int32) {
        var all: [Int32] = []
        var frontier = [pid]
        while let next = frontier.popLast() {
            all.append(next)
            frontier += children(of: next)
        }
        // Stop the parents first so they start no new children, then kill everything.
        for process in all { kill(process, SIGSTOP) }
        for process in all { kill(process, SIGKILL) }
    }

    /// The processes whose parent is `pid` (from /proc).
    static func children(of pid: Int32) -> [Int32] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return names.compactMap { name -> Int32? in
            guard let child = Int32(name), let stat = try? String(contentsOfFile: "/proc/\(name)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return nil }
            // "pid (comm) state ppid ...": after the command's closing parenthesis.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 1 && Int32(fields[1]) == pid ? child : nil
        }
    }

    /// Processes whose command line contains `text`.
    static func processes(mentioning text: String) -> [Int32] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return names.compactMap { name -> Int32? in
            guard let pid = Int32(name), let line = FileManager.default.contents(atPath: "/proc/\(name)/cmdline") else { return nil }
            return String(decoding: line, as: UTF8.self).contains(text) ? pid : nil
        }
    }

    static let skipMessage: Comment = "needs xvfb-run and ../shared/data/tds/apple-tds.json (set TRACKERLESS_REQUIRE_WEBKIT=1 to fail instead)"

    /// A running site proxy: its port, and every URL it was asked for so far.
    final class SiteProxy: @unchecked Sendable {
        let process = Process()
        let port: Int
        private let output: FileHandle
        private let lock = NSLock()
        private var buffer = Data()
        private var requests: [Request] = []
        private var connections: [String] = []

        /// A request the proxy received: its URL and the `Sec-GPC`, `Referer` and `Sec-Fetch-Dest` headers it
        /// carried (lower-cased names).
        struct Request {
            var url: String
            var headers: [String: String]
        }

        /// A proxy serving Tests/Sites, or `sites` (a directory with one directory per host).
        init(sites: URL = packageRoot.appendingPathComponent("Tests/Sites")) throws {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
            process.arguments = [packageRoot.appendingPathComponent("Tests/Support/site_proxy.py").path, sites.path]
            let stdout = Pipe(), stdin = Pipe()
            process.standardOutput = stdout
            process.standardInput = stdin
            try process.run()
            output = stdout.fileHandleForReading
            var first = Data()
            while !first.contains(UInt8(ascii: "\n")) {
                let chunk = output.availableData
                guard !chunk.isEmpty else { throw CocoaError(.fileReadUnknown) }
                first.append(chunk)
            }
            let line = first.prefix(while: { $0 != UInt8(ascii: "\n") })
            let object = try JSONSerialization.jsonObject(with: line) as? [String: Any]
            port = try #require(object?["port"] as? Int)
            buffer = Data(first.drop(while: { $0 != UInt8(ascii: "\n") }).dropFirst())
            output.readabilityHandler = { [weak self] handle in self?.append(handle.availableData) }
        }

        private func append(_ data: Data) {
            lock.lock()
            defer { lock.unlock() }
            buffer.append(data)
            while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = buffer[buffer.startIndex..<newline]
                buffer = Data(buffer[buffer.index(after: newline)...])
                guard let object = try? JSONSerialization.jsonObject(with: line) as? [String: Any] else { continue }
                if let url = object["url"] as? String {
                    requests.append(Request(url: url, headers: object["headers"] as? [String: String] ?? [:]))
                } else if let target = object["connect"] as? String {
                    connections.append(target)
                }
            }
        }

        /// The URLs requested so far, and forgets them.
        func takeURLs() -> [String] { takeRequests().map(\.url) }

        /// The requests received so far, and forgets them.
        func takeRequests() -> [Request] { take(\.requests) }

        /// The `host:port` of each tunnel (CONNECT) opened so far, whether or not a request went
        /// through it, and forgets them.
        func takeConnections() -> [String] { take(\.connections) }

        /// What `log` holds once the proxy's last lines are in, emptied.
        private func take<Entry>(_ log: ReferenceWritableKeyPath<SiteProxy, [Entry]>) -> [Entry] {
            Thread.sleep(forTimeInterval: 0.2)
            lock.lock()
            defer { lock.unlock() }
            let taken = self[keyPath: log]
            self[keyPath: log] = []
            return taken
        }

        deinit {
            output.readabilityHandler = nil
            BrowserProcess.killTree(process.processIdentifier)
            process.waitUntilExit()
        }
    }

    /// Runs the browser headless on `urls` through the proxy; its exit status, standard error and
    /// the snapshots it wrote. `cache` also holds the snapshots and standard error; with
    /// `passesCache` false the browser picks its cache directory itself (from `environment`,
    /// added to this process's).
    static func runHeadless(
        urls: [String], proxy: SiteProxy, cache: URL, extraArguments: [String] = [],
        passesCache: Bool = true, environment: [String: String] = [:]
    ) throws -> (status: Int32, standardError: String, snapshots: [[String: Any]]) {
        let snapshots = cache.appendingPathComponent("snapshots.jsonl")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/xvfb-run")
        process.arguments = ["-a", executable.path, "--headless", "--tds", sharedData.appendingPathComponent("tds/apple-tds.json").path]
            + (passesCache ? ["--cache", cache.path] : [])
            + ["--proxy", "127.0.0.1:\(proxy.port)", "--snapshots", snapshots.path] + extraArguments + urls
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let errorFile = cache.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: errorFile)
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        let standardError = (try? String(contentsOf: errorFile, encoding: .utf8)) ?? ""
        let lines = ((try? String(contentsOf: snapshots, encoding: .utf8)) ?? "").split(separator: "\n")
        let objects = try lines.map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        return (process.terminationStatus, standardError, objects)
    }

    /// A fresh temporary directory.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("trackerless-browser-test-" + UUID().uuidString)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
