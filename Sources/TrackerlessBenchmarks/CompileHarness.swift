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

    /// Compiles every job in one harness process, in the order given.
    func compile(_ jobs: [Job]) throws(Unavailable) -> [Outcome] {
        let files = FileManager.default
        guard files.isReadableFile(atPath: scriptPath) else { throw .missing("no WebKit harness at \(scriptPath)") }
        guard files.isExecutableFile(atPath: interpreter) else { throw .missing("no \(interpreter) to run the WebKit harness") }
        let (status, output) = try run(input: jobs.map(\.line).joined(separator: "\n") + "\n")
        guard status == 0 else { throw .failed(status: status) }
        return try Self.outcomes(from: output)
    }

    /// Runs the harness with `input` on standard input; its exit status and standard output.
    /// Its standard error is ours, so its messages reach the user as they are.
    private func run(input: String) throws(Unavailable) -> (Int32, [UInt8]) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: interpreter)
        process.arguments = [scriptPath, "compile"]
        let standardInput = Pipe(), standardOutput = Pipe()
        process.standardInput = standardInput
        process.standardOutput = standardOutput
        do {
            try process.run()
        } catch {
            throw .missing("cannot start \(interpreter) \(scriptPath): \(error)")
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
                return Outcome(id: id, compiled: compiled, error: error, seconds: seconds)
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
