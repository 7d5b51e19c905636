import Foundation
import TrackerlessCore

/// Drives the WebKitGTK harness (`webkit_harness.py compile`): one process compiles the given
/// rule-list files in order with WebKit's content-blocker compiler and reports each one's time.
struct CompileHarness: Sendable {
    /// One compilation asked of the harness.
    struct Job: Sendable {
        /// Echoed back with the result.
        let id: String
        /// The rule list file.
        let path: String
    }

    /// The harness's answer for one job.
    struct Outcome: Sendable {
        /// The job's id.
        let id: String
        /// Whether WebKit compiled the list.
        let compiled: Bool
        /// WebKit's error message when it did not.
        let error: String?
        /// Seconds from the request to save the list until WebKit reported it saved.
        let seconds: Double
        /// The harness process's CPU seconds (every thread) over the same span; nil from a harness
        /// that does not report them.
        var cpuSeconds: Double? = nil
    }

    /// Why WebKit figures are missing.
    enum Unavailable: Error, CustomStringConvertible {
        /// No harness script or interpreter.
        case missing(String)
        /// The harness exited with this status; its own message went to standard error.
        case failed(status: Int32)
        /// The harness printed something that is not a result line.
        case unexpectedOutput(String)

        var description: String {
            switch self {
            case .missing(let what): return what
            case .failed(3): return "WebKitGTK is not installed (harness exit status 3; its message is above)"
            case .failed(let status): return "the WebKit harness failed with exit status \(status) (its message is above)"
            case .unexpectedOutput(let line): return "unexpected output from the WebKit harness: \(line)"
            }
        }
    }

    /// The harness script.
    let scriptPath: String
    /// The interpreter that has PyGObject.
    let interpreter = "/usr/bin/python3"
    /// The root whose WebKitGTK (and python3) to run, with bubblewrap; nil for the machine's.
    var root: WebKitRoot? = nil
    /// The directory WebKit writes its temporary files in while it compiles (one for each
    /// automaton it converts), bound writable in a root; nil for the harness's own (`TMPDIR`,
    /// else /tmp; a root's is a tmpfs).
    var temporaryDirectory: String? = nil

    /// The WebKitGTK version the harness loads (`webkit_harness.py version`).
    struct Version: Sendable, CustomStringConvertible {
        let major: Int, minor: Int, micro: Int
        /// The GI namespace version of its bindings: "4.0" or "4.1".
        let api: String

        /// "2.44.2".
        var description: String { "\(major).\(minor).\(micro)" }
    }

    /// Compiles every job in one harness process, in the order given.
    func compile(_ jobs: [Job]) throws(Unavailable) -> [Outcome] {
        let files = FileManager.default
        guard files.isReadableFile(atPath: scriptPath) else { throw .missing("no WebKit harness at \(scriptPath)") }
        guard root != nil || files.isExecutableFile(atPath: interpreter) else {
            throw .missing("no \(interpreter) to run the WebKit harness")
        }
        // Inside a root, the lists' directories are bound at their own paths.
        let directories = jobs.map { URL(fileURLWithPath: $0.path).deletingLastPathComponent().path }
        let (status, output) = try run(
            ["compile"] + (temporaryDirectory.map { ["--tmpdir", $0] } ?? []),
            input: jobs.map(\.line).joined(separator: "\n") + "\n", readOnly: directories,
            writable: temporaryDirectory.map { [$0] } ?? [])
        guard status == 0 else { throw .failed(status: status) }
        return try Self.outcomes(from: output)
    }

    /// The WebKitGTK version the harness loads.
    func version() throws(Unavailable) -> Version {
        let files = FileManager.default
        guard files.isReadableFile(atPath: scriptPath) else { throw .missing("no WebKit harness at \(scriptPath)") }
        let (status, output) = try run(["version"], input: "", readOnly: [])
        guard status == 0 else { throw .failed(status: status) }
        let text = String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        let version = try? JSONReader.read(Array(text.utf8)) { (reader) throws(JSONReadError) -> Version? in
            guard let object = try reader.indexObjectIfPresent(at: .root) else { return nil }
            defer { reader.leave(object) }
            guard reader.seek("major", in: object), let major = try reader.readDoubleIfPresent(),
                reader.seek("minor", in: object), let minor = try reader.readDoubleIfPresent(),
                reader.seek("micro", in: object), let micro = try reader.readDoubleIfPresent()
            else { return nil }
            var api = "?"
            if reader.seek("api", in: object), let name = try reader.readStringIfPresent() { api = name }
            return Version(major: Int(major), minor: Int(minor), micro: Int(micro), api: api)
        }
        guard let version = version ?? nil else { throw .unexpectedOutput(text) }
        return version
    }

    /// Runs the harness with `arguments` (its subcommand first) and `input` on standard input (in
    /// ``root`` when set, with `readOnly` and `writable` directories bound); its exit status and
    /// standard output. Its standard error is ours, so its messages reach the user as they are.
    private func run(_ arguments: [String], input: String, readOnly: [String], writable: [String] = []) throws(Unavailable) -> (Int32, [UInt8]) {
        let process = Process()
        var command = [interpreter, scriptPath] + arguments
        if let root {
            let harnessDirectory = URL(fileURLWithPath: scriptPath).deletingLastPathComponent().path
            command = root.command(command, readOnly: [harnessDirectory] + readOnly, writable: writable)
        }
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        let standardInput = Pipe(), standardOutput = Pipe()
        process.standardInput = standardInput
        process.standardOutput = standardOutput
        do {
            try process.run()
        } catch {
            throw .missing("cannot start \(command[0]) \(scriptPath): \(error)")
        }
        // The harness reads all its input before it answers, so writing first cannot deadlock.
        standardInput.fileHandleForWriting.write(Data(input.utf8))
        try? standardInput.fileHandleForWriting.close()
        let output = standardOutput.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, Array(output))
    }

    /// The JSON lines the harness printed.
    private static func outcomes(from output: [UInt8]) throws(Unavailable) -> [Outcome] {
        var outcomes: [Outcome] = []
        for line in output.split(separator: 0x0A) where !line.isEmpty {
            let text = String(decoding: line, as: UTF8.self)
            let outcome = try? JSONReader.read(Array(line)) { (reader) throws(JSONReadError) -> Outcome? in
                guard let object = try reader.indexObjectIfPresent(at: .root) else { return nil }
                defer { reader.leave(object) }
                guard reader.seek("id", in: object), let id = try reader.readStringIfPresent(),
                    reader.seek("ok", in: object), let compiled = try reader.readBoolIfPresent(),
                    reader.seek("seconds", in: object), let seconds = try reader.readDoubleIfPresent()
                else { return nil }
                var error: String?
                if reader.seek("error", in: object) { error = try reader.readStringIfPresent() }
                var cpuSeconds: Double?
                if reader.seek("cpu_seconds", in: object) { cpuSeconds = try reader.readDoubleIfPresent() }
                return Outcome(id: id, compiled: compiled, error: error, seconds: seconds, cpuSeconds: cpuSeconds)
            }
            guard let outcome = outcome ?? nil else { throw .unexpectedOutput(text) }
            outcomes.append(outcome)
        }
        return outcomes
    }
}

extension CompileHarness.Job {
    /// The harness's input line for this job.
    var line: String {
        JSONValue.object(JSONObject([("id", .string(id)), ("rules_file", .string(path))])).jsonString()
    }
}
