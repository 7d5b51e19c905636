import Foundation

/// Runs the real-WebKit oracle (`harness/webkit_harness.py`, WebKitGTK under Xvfb) as a subprocess.
///
/// `compile` asks WebKit whether rule lists compile and with which message; `load` installs rule
/// lists in a web view and reports, per request, whether WebKit let it reach the network. All
/// traffic goes to a loopback proxy inside the harness. Inputs and outputs are JSON lines.
struct WebKitHarness: Sendable {
    /// Why the harness could not be used or did not answer.
    enum Failure: Error, CustomStringConvertible {
        /// WebKitGTK, PyGObject or xvfb-run is missing while TRACKERLESS_REQUIRE_WEBKIT=1.
        case unavailable(String)
        /// The harness exited with a non-zero status.
        case failed(status: Int32, stderr: String)
        /// The harness printed something that is not one answer per case.
        case badOutput(String)

        var description: String {
            switch self {
            case .unavailable(let why): "WebKit harness unavailable: \(why)"
            case .failed(let status, let stderr): "WebKit harness exited with status \(status): \(stderr)"
            case .badOutput(let what): "WebKit harness output: \(what)"
            }
        }
    }

    /// WebKit's verdict on one rule list.
    struct CompileResult: Sendable, Equatable {
        /// Whether WebKit compiled the list.
        var ok: Bool
        /// WebKit's error message when it did not.
        var error: String?
        /// Wall time WebKit spent compiling, in seconds.
        var seconds: Double
    }

    /// One request to make from a page.
    struct LoadCase: Sendable {
        /// Names the case in the results.
        var id: String
        /// The page (main frame) URL; ignored for `top-document`, which navigates to `requestURL`.
        var topURL: String
        /// The URL requested.
        var requestURL: String
        /// WebKit's resource type: image, script, style-sheet, font, fetch, child-document, media,
        /// top-document, svg-document (same origin as the issuing document only), ping,
        /// websocket, popup or other.
        var type: String
        /// When set, the request is issued by an iframe at this URL inside the top page.
        var frameURL: String?
        /// For child-document and top-document: the URL the frame (the view) shows first,
        /// before it navigates to `requestURL`. Without it an iframe is new and a top-document
        /// loads in a new view.
        var fromURL: String? = nil
        /// Who starts the navigation from `fromURL`: "parent" (sets iframe.src; the default for
        /// child-document), "view" (the default for top-document) or "frame" (the document at
        /// `fromURL` sets location.href).
        var navigatedBy: String? = nil
    }

    /// What WebKit did with one request.
    struct LoadResult: Sendable {
        /// The case's id.
        var id: String
        /// Whether the request never reached the network (for data: URLs: whether the page saw
        /// it fail).
        var blocked: Bool
        /// The proxy's and the page's observations, for failure messages.
        var detail: String
    }

    /// The system interpreter, which has PyGObject; another python3 on PATH usually does not.
    /// With `TRACKERLESS_WEBKIT_ROOT` set it is the root's `/usr/bin/python3`, run inside the root
    /// (``run(_:stdin:stderrIn:)`` runs any command that starts with it through ``rootRunner``).
    static let python = "/usr/bin/python3"

    /// The harness script, next to this file in the source tree.
    let script: String

    /// The directory of the Python harnesses (`harness/`).
    static let harnessDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("harness").path

    /// Whether a missing WebKit must fail tests rather than skip them.
    static var isRequired: Bool {
        ProcessInfo.processInfo.environment["TRACKERLESS_REQUIRE_WEBKIT"] == "1"
    }

    /// `TRACKERLESS_WEBKIT_ROOT`: a Debian root with its own WebKitGTK, python3 and Xvfb (made by
    /// `.ci/install-webkit-roots.sh`), which every harness then runs inside; nil (the machine's
    /// WebKitGTK) when unset or empty.
    static var webKitRoot: String? {
        guard let root = ProcessInfo.processInfo.environment["TRACKERLESS_WEBKIT_ROOT"], !root.isEmpty else {
            return nil
        }
        return root
    }

    /// `harness/in_webkit_root.py`, which checks a root and runs a command inside it with
    /// bubblewrap (the benchmark's `--webkit-root` uses it too).
    static let rootRunner = harnessDirectory + "/in_webkit_root.py"

    /// Imports WebKit2 4.1, else 4.0 (what the root or the machine has), and GTK 3.
    private static let importProbe = """
        import gi
        for api in ('4.1', '4.0'):
            try:
                gi.require_version('WebKit2', api)
                break
            except ValueError:
                pass
        else:
            raise SystemExit('no WebKit2 4.1 or 4.0 typelib')
        gi.require_version('Gtk', '3.0')
        from gi.repository import WebKit2, Gtk
        """

    /// Why the harness cannot run here, or nil when it can (checked once per process).
    static func missingPrerequisite() -> String? { checkedPrerequisite }

    private static let checkedPrerequisite: String? = checkPrerequisite()

    private static func checkPrerequisite() -> String? {
        let files = FileManager.default
        if let root = webKitRoot {
            let name = "TRACKERLESS_WEBKIT_ROOT=\(root)"
            // in_webkit_root.py checks the root (its stamp, python3 and xvfb-run) and bubblewrap
            // before it runs the probe, and exits 120-124 with its own message when one is missing.
            let probe = try? withTemporaryDirectory { directory in
                try run([python, "-c", importProbe], stdin: nil, stderrIn: directory)
            }
            guard let probe else { return "\(name): \(rootRunner) did not start" }
            if (120...124).contains(probe.status) {
                let message = probe.stderr.split(separator: "\n").filter { $0.hasPrefix("in_webkit_root:") }
                return "\(name): " + message.joined(separator: " ")
                    + " (\(URL(fileURLWithPath: rootRunner).lastPathComponent) exit status \(probe.status))"
            }
            guard probe.status == 0 else {
                return "\(python) in \(name) cannot import WebKit2 4.1 or 4.0 with GTK 3 (exit status \(probe.status))"
            }
            return nil
        }
        guard files.isExecutableFile(atPath: python) else { return "\(python) is missing" }
        guard (try? run([python, "-c", importProbe], stdin: nil).status) == 0 else {
            return "\(python) cannot import WebKit2 4.1 or 4.0 (install python3-gi, gir1.2-webkit2-4.1: "
                + ".ci/install-webkit.sh)"
        }
        let hasXvfb = ["/usr/bin/xvfb-run", "/bin/xvfb-run"].contains { files.isExecutableFile(atPath: $0) }
        if !hasXvfb && ProcessInfo.processInfo.environment["DISPLAY"] == nil {
            return "xvfb-run is missing and DISPLAY is unset (install xvfb, xauth)"
        }
        return nil
    }

    /// Whether tests that need WebKit should run: it is installed, or it is required (then
    /// `make()` throws and the tests fail).
    static let shouldRun: Bool = isRequired || missingPrerequisite() == nil

    /// The harness, or nil (the test should skip with a message) when /usr/bin/python3 with
    /// WebKit2 4.1 or 4.0 or xvfb-run is missing (in the root of `TRACKERLESS_WEBKIT_ROOT` when
    /// set); throws instead when TRACKERLESS_REQUIRE_WEBKIT=1.
    static func make() throws -> WebKitHarness? {
        if let missing = missingPrerequisite() {
            if isRequired { throw Failure.unavailable(missing) }
            return nil
        }
        let script = harnessDirectory + "/webkit_harness.py"
        guard FileManager.default.fileExists(atPath: script) else {
            throw Failure.unavailable("\(script) is missing")
        }
        return WebKitHarness(script: script)
    }

    /// The WebKitGTK version the harness runs (`webkit_harness.py version`).
    struct Version: Sendable, Equatable, CustomStringConvertible {
        var major: Int
        var minor: Int
        var micro: Int
        /// The GI namespace version of its bindings: "4.0" or "4.1".
        var api: String

        /// "2.44.2".
        var description: String { "\(major).\(minor).\(micro)" }
    }

    private struct VersionLine: Decodable {
        var major: Int
        var minor: Int
        var micro: Int
        var api: String?
    }

    private static let cachedVersion: Result<Version, Failure> = {
        do {
            guard let harness = try make() else {
                return .failure(.unavailable(missingPrerequisite() ?? "WebKitGTK is not installed"))
            }
            let result = try run([python, harness.script, "version"], stdin: nil, stderrIn: nil)
            guard result.status == 0 else {
                return .failure(.failed(status: result.status, stderr: meaningful(result.stderr)))
            }
            let text = String(decoding: result.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            guard let line = try? JSONDecoder().decode(VersionLine.self, from: Data(text.utf8)) else {
                return .failure(.badOutput("version: \(text)"))
            }
            return .success(Version(major: line.major, minor: line.minor, micro: line.micro, api: line.api ?? "?"))
        } catch let failure as Failure {
            return .failure(failure)
        } catch {
            return .failure(.badOutput("version: \(error)"))
        }
    }()

    /// The WebKitGTK version of the harness (the root's with `TRACKERLESS_WEBKIT_ROOT`), asked
    /// once per process; throws when the harness cannot run.
    static func version() throws -> Version {
        try cachedVersion.get()
    }

    /// Compiles each list with WebKitGTK's UserContentFilterStore, in one harness run.
    func compile(_ ruleLists: [(id: String, json: [UInt8])]) throws -> [String: CompileResult] {
        try Self.withTemporaryDirectory { directory in
            var input: [[String: String]] = []
            for (index, list) in ruleLists.enumerated() {
                let file = directory.appendingPathComponent("list\(index).json")
                try Data(list.json).write(to: file)
                input.append(["id": list.id, "rules_file": file.path])
            }
            let output = try runHarness(["compile"], input: input, in: directory)
            let lines = try decodeLines(CompileLine.self, from: output, expecting: ruleLists.map(\.id))
            return lines.mapValues { CompileResult(ok: $0.ok, error: $0.error, seconds: $0.seconds) }
        }
    }

    /// One page-loading run at a time in this test process: each already loads four pages in
    /// parallel, and more web processes on a small machine only make the harness's timeouts
    /// (10 s per page load, 3 s to settle) the thing being tested.
    private static let loadLock = NSLock()

    /// Loads pages in a web view with all `ruleLists` installed and reports each case.
    func load(ruleLists: [[UInt8]], cases: [LoadCase]) throws -> [String: LoadResult] {
        Self.loadLock.lock()
        defer { Self.loadLock.unlock() }
        return try Self.withTemporaryDirectory { directory in
            var arguments = ["load"]
            for (index, list) in ruleLists.enumerated() {
                let file = directory.appendingPathComponent("list\(index).json")
                try Data(list).write(to: file)
                arguments += ["--rules", file.path]
            }
            let input: [[String: String]] = cases.map { load in
                var line = ["id": load.id, "top": load.topURL, "url": load.requestURL, "type": load.type]
                if let frame = load.frameURL { line["frame"] = frame }
                if let from = load.fromURL { line["from"] = from }
                if let by = load.navigatedBy { line["by"] = by }
                return line
            }
            let output = try runHarness(arguments, input: input, in: directory)
            let lines = try decodeLines(LoadLine.self, from: output, expecting: cases.map(\.id))
            return lines.mapValues { LoadResult(id: $0.id, blocked: $0.blocked, detail: $0.detail) }
        }
    }
}

// MARK: - Subprocess plumbing

extension WebKitHarness {
    private struct CompileLine: Decodable, Identified {
        var id: String
        var ok: Bool
        var error: String?
        var seconds: Double
    }

    private struct LoadLine: Decodable, Identified {
        var id: String
        var blocked: Bool
        var detail: String
    }

    private func runHarness(_ arguments: [String], input: [[String: String]], in directory: URL) throws -> Data {
        var text = Data()
        for line in input {
            text += try JSONSerialization.data(withJSONObject: line, options: [.sortedKeys])
            text += Data("\n".utf8)
        }
        let stdin = directory.appendingPathComponent("stdin.jsonl")
        try text.write(to: stdin)
        let result = try Self.run([Self.python, script] + arguments, stdin: stdin, stderrIn: directory)
        guard result.status == 0 else {
            throw Failure.failed(status: result.status, stderr: Self.meaningful(result.stderr))
        }
        return result.stdout
    }

    private func decodeLines<Line: Decodable & Identified>(
        _: Line.Type, from output: Data, expecting ids: [String]
    ) throws -> [String: Line] {
        var lines: [String: Line] = [:]
        for raw in output.split(separator: UInt8(ascii: "\n")) where !raw.isEmpty {
            do {
                let line = try JSONDecoder().decode(Line.self, from: Data(raw))
                lines[line.id] = line
            } catch {
                throw Failure.badOutput("not a result line: \(String(decoding: raw, as: UTF8.self))")
            }
        }
        let missing = ids.filter { lines[$0] == nil }
        guard missing.isEmpty else {
            throw Failure.badOutput("no result for \(missing.prefix(10).joined(separator: ", "))")
        }
        return lines
    }

    /// Runs a command to completion: stdin from a file, stdout read through a pipe until EOF
    /// (so a full pipe never blocks the child), stderr into a file (WebKit's GStreamer and ALSA
    /// chatter can be long).
    static func run(_ command: [String], stdin: URL?, stderrIn directory: URL? = nil) throws
        -> (status: Int32, stdout: Data, stderr: String)
    {
        var command = command
        if command.first == python, let root = webKitRoot {
            // in_webkit_root.py binds the harness directory and the directory of every absolute
            // path among the arguments read-only at their own paths, `directory` (the run's:
            // inputs, rule lists, stderr) writable.
            command = [rootRunner] + (directory.map { ["--bind", $0.path] } ?? []) + [root] + command
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        // WebKit leaves a ContentRuleList-* temporary for every list it refuses (the validator
        // tests give it thousands): the child's temporary directory is the run's own, removed
        // after it. (In a WebKit root, /tmp is a tmpfs of the run already.)
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("trackerless-webkit-tmp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        var environment = ProcessInfo.processInfo.environment
        environment["TMPDIR"] = scratch.path
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        var stderrFile: URL?
        if let directory {
            let file = directory.appendingPathComponent("stderr.txt")
            _ = FileManager.default.createFile(atPath: file.path, contents: nil)
            process.standardError = try FileHandle(forWritingTo: file)
            stderrFile = file
        } else {
            process.standardError = FileHandle.nullDevice
        }
        process.standardInput = try stdin.map { try FileHandle(forReadingFrom: $0) } ?? FileHandle.nullDevice
        try process.run()
        let stdout = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let stderr = stderrFile.flatMap { try? String(contentsOf: $0, encoding: .utf8) } ?? ""
        return (process.terminationStatus, stdout, stderr)
    }

    /// The harness's own lines from stderr, without the audio and D-Bus noise of the web process.
    private static func meaningful(_ stderr: String) -> String {
        let lines = stderr.split(separator: "\n").filter { line in
            !line.hasPrefix("ALSA lib") && !line.hasPrefix("AL lib") && !line.contains("D-Bus")
        }
        return lines.suffix(20).joined(separator: "\n")
    }

    private static func withTemporaryDirectory<T>(_ body: (URL) throws -> T) throws -> T {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("trackerless-webkit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        return try body(directory)
    }
}

private protocol Identified {
    var id: String { get }
}
