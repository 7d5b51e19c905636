import Foundation
import Testing

/// `trackerless-browser --mode` and `--web-process-extension` on the command line, and `--headless`'s exit status.
@Suite("trackerless-browser --mode")
struct BrowserModeOptionTests {
    /// Runs the browser with `arguments` (no display needed: it stops before GTK starts or
    /// right after); its exit status and standard error.
    static func run(_ arguments: [String]) throws -> (status: Int32, standardError: String) {
        let process = Process()
        process.executableURL = BrowserProcess.executable
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let data = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test("a mode other than rules, engine or script is wrong usage (exit 2), named in the message")
    func unknownMode() throws {
        let run = try Self.run(["--headless", "--mode", "filters", "--snapshots", "/dev/null", "https://news.example/"])
        #expect(run.status == 2)
        #expect(run.standardError.contains(#"--mode takes rules, engine or script, not "filters""#), "\(run.standardError)")
    }

    @Test("--help names the three modes")
    func help() throws {
        let process = Process()
        process.executableURL = BrowserProcess.executable
        process.arguments = ["--help"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(text.contains("[--mode rules|engine|script]") && text.contains("--web-process-extension FILE"))
    }

    /// `trackerless-browser --headless` under Xvfb with `arguments`, on https://news.example/ with
    /// `cache`: its exit status and standard error.
    static func runHeadless(_ arguments: [String], cache: URL) throws -> (status: Int32, standardError: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/xvfb-run")
        process.arguments = ["-a", BrowserProcess.executable.path, "--headless"] + arguments
            + ["--cache", cache.path, "--snapshots", cache.appendingPathComponent("s.jsonl").path, "https://news.example/"]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    @Test("an extension library that is not there stops the browser (exit 1) with its path", .enabled(if: BrowserProcess.canRunWithoutSharedData))
    func missingExtension() throws {
        let cache = try BrowserProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: cache) }
        let missing = cache.appendingPathComponent("nowhere/libTrackerlessWebProcessExtension.so").path
        let (status, text) = try Self.runHeadless(["--mode", "engine", "--web-process-extension", missing], cache: cache)
        #expect(status == 1)
        #expect(text.contains(missing + ": the web-process extension:"), "\(text)")
    }

    @Test("--headless exits 0 only when every page loaded: a page whose proxy refuses the connection fails the run, named",
          .enabled(if: BrowserProcess.canRunWithoutSharedData))
    func failedLoad() throws {
        let cache = try BrowserProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: cache) }
        // A port nothing listens on: bound, then closed.
        let socket = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        try withUnsafeMutablePointer(to: &address) { pointer in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                try #require(bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0, "no free port")
            }
        }
        close(socket)
        let port = Int(UInt16(bigEndian: address.sin_port))
        let (status, text) = try Self.runHeadless(["--proxy", "127.0.0.1:\(port)"], cache: cache)
        #expect(status == 1, "\(text)")
        #expect(text.contains("trackerless-browser: https://news.example/: "), "\(text)")
    }
}
