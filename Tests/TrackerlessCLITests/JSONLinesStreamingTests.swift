import Foundation
import Testing

/// `decide` and `resolve` answer each JSON line as it arrives, with memory bounded by the longest
/// accepted line, and say when a line is too long.
@Suite(.enabled(if: CommandRunner.isAvailable, "the trackerless executable is not built"))
struct JSONLinesStreamingTests {
    static let request = #"{"url":"https://ads.example/pixel?id=1","top":"https://news.example/","type":"image"}"#

    /// Reads a pipe on its own thread, so that the test can wait for a line with a deadline.
    final class PipeReader: @unchecked Sendable {
        private let lock = NSLock()
        private var bytes: [UInt8] = []
        private var finished = false

        init(_ handle: FileHandle) {
            Thread.detachNewThread { [self] in
                while true {
                    let data = handle.availableData
                    lock.lock()
                    if data.isEmpty { finished = true } else { bytes += data }
                    lock.unlock()
                    if data.isEmpty { return }
                }
            }
        }

        /// The output once it holds `lines` lines or the input ended, waiting up to `seconds`.
        func text(lines: Int, seconds: Double) -> String {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                lock.lock()
                let done = finished || bytes.filter { $0 == 0x0A }.count >= lines
                let text = String(decoding: bytes, as: UTF8.self)
                lock.unlock()
                if done { return text }
                Thread.sleep(forTimeInterval: 0.02)
            }
            lock.lock()
            defer { lock.unlock() }
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    @Test("resolve and decide answer a line while standard input is still open", arguments: ["resolve", "decide"])
    func answersEachLineAsItArrives(command: String) throws {
        let directory = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var arguments = [command]
        var line = Self.request
        if command == "decide" {
            let rules = directory.appendingPathComponent("rules.json").path
            #expect(try CommandRunner.run(["rules", "--output", rules]).status == 0)
            arguments += ["--rules", rules]
            line = #"{"url":"https://ads.example/tag.js","top":"https://news.example/","type":"script"}"#
        }
        let input = Pipe()
        let output = Pipe()
        let process = Process()
        process.executableURL = CommandRunner.executable
        process.arguments = arguments
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let reader = PipeReader(output.fileHandleForReading)
        input.fileHandleForWriting.write(Data((line + "\n").utf8))
        // The input stays open: the answer must come anyway.
        let first = reader.text(lines: 1, seconds: 60)
        #expect(first.hasPrefix(command == "decide" ? #"{"blocked":true"# : #"{"action":"block""#), "\(first)")
        input.fileHandleForWriting.write(Data("{\"url\": 5}\n".utf8))
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        let all = reader.text(lines: 2, seconds: 60).split(separator: "\n")
        #expect(all.count == 2 && all[1].hasPrefix(#"{"error":"line 2: "#), "\(all)")
        #expect(process.terminationStatus == 1)
    }

    @Test("a line over 1 MiB is answered with an error and the next line still with its answer")
    func longLine() throws {
        let long = #"{"url":""# + String(repeating: "a", count: 2 << 20) + #""}"#
        let result = try CommandRunner.run(["resolve"], input: long + "\n" + Self.request + "\n")
        let lines = result.standardOutput.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.first == #"{"error":"line 1: the line has \#(long.utf8.count) bytes; the limit is 1048576"}"#)
        #expect(lines.last?.hasPrefix(#"{"action":"block""#) == true)
        #expect(result.status == 1)
    }

    @Test("64 MiB without a newline is read in bounded memory (data limit 60 MB)")
    func boundedMemory() throws {
        let directory = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let zeros = directory.appendingPathComponent("zeros")
        try Data(count: 64 << 20).write(to: zeros)
        // Reading the whole input first needs more than the limit and aborts.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", #"ulimit -d 60000 && exec "$0" resolve < "$1""#, CommandRunner.executable.path, zeros.path]
        let output = directory.appendingPathComponent("out")
        try Data().write(to: output)
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        let text = String(decoding: try Data(contentsOf: output), as: UTF8.self)
        #expect(text == #"{"error":"line 1: the line has 67108864 bytes; the limit is 1048576"}"# + "\n")
        #expect(process.terminationReason == .exit && process.terminationStatus == 1)
    }

    @Test("stats --stream writes a page's snapshot when the page ends, while standard input is still open")
    func statsStream() throws {
        let input = Pipe()
        let output = Pipe()
        let process = Process()
        process.executableURL = CommandRunner.executable
        process.arguments = ["stats", "--messages", "-", "--stream", "--secret", "5ec7e75ec7e75ec7e75ec7e75ec7e75e"]
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let reader = PipeReader(output.fileHandleForReading)
        let message = #"{"tab":"1","message":{"trackerless":1,"secret":"5ec7e75ec7e75ec7e75ec7e75ec7e75e","script":"inference","page":{"id":"0f1e2d3c4b5a6978","url":"https://news.example/","frame":"https://news.example/","isTopFrame":true},"seq":0,"events":[{"kind":"request","url":"https://social.example/w.js","type":"script","state":"failed"}]}}"#
        let lines = [#"{"tab":"1","navigate":"https://news.example/"}"#, message, #"{"tab":"1","navigate":"https://shop.example/"}"#]
        input.fileHandleForWriting.write(Data((lines.joined(separator: "\n") + "\n").utf8))
        let first = reader.text(lines: 1, seconds: 60)
        #expect(first.hasPrefix(#"{"schema":"trackerless-dashboard""#) && first.contains(#""url":"https://news.example/""#), "\(first)")
        #expect(first.contains(#""trackers":{"blocked":1"#), "\(first)")
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        let all = reader.text(lines: 2, seconds: 60).split(separator: "\n")
        #expect(all.count == 2 && all[1].hasPrefix(#"{"schema":"trackerless-stats-report""#), "\(all)")
        #expect(all.last?.contains(#""pages":[{"schema":"trackerless-dashboard","schemaVersion":2,"tab":"1","url":"https://shop.example/""#) == true)
        #expect(process.terminationStatus == 0)
    }
}
