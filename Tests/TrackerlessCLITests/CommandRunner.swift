import Foundation

/// Runs the `trackerless` executable that `swift build` put beside the test bundle.
struct CommandRunner {
    struct Result {
        var status: Int32
        var standardOutput: String
        var standardError: String
        /// The command outlived the deadline it was given and was killed.
        var isTimedOut = false
    }

    /// `.build/<configuration>/trackerless`, next to the test runner.
    static let executable: URL = {
        let runner = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var directory = runner.deletingLastPathComponent()
        // On Apple platforms the runner sits inside the .xctest bundle.
        while directory.pathExtension == "xctest" || directory.lastPathComponent == "MacOS" || directory.lastPathComponent == "Contents" {
            directory = directory.deletingLastPathComponent()
        }
        return directory.appendingPathComponent("trackerless")
    }()

    static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: executable.path) }

    /// Runs `trackerless arguments...` with `input` on standard input. The streams go through
    /// temporary files, so that no pipe can fill up and stall either side. A command still running
    /// after `deadline` seconds is killed (SIGKILL): a test of a command that must not wait
    /// (for a reader, for input) fails instead of hanging.
    static func run(_ arguments: [String], input: String = "", deadline: TimeInterval? = nil) throws -> Result {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let inputFile = directory.appendingPathComponent("stdin")
        let outputFile = directory.appendingPathComponent("stdout")
        let errorFile = directory.appendingPathComponent("stderr")
        try Data(input.utf8).write(to: inputFile)
        try Data().write(to: outputFile)
        try Data().write(to: errorFile)
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.standardInput = try FileHandle(forReadingFrom: inputFile)
        process.standardOutput = try FileHandle(forWritingTo: outputFile)
        process.standardError = try FileHandle(forWritingTo: errorFile)
        try process.run()
        var isTimedOut = false
        if let deadline {
            let end = Date().addingTimeInterval(deadline)
            while process.isRunning && Date() < end { usleep(10_000) }
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                isTimedOut = true
            }
        }
        process.waitUntilExit()
        return Result(status: process.terminationStatus,
                      standardOutput: String(decoding: try Data(contentsOf: outputFile), as: UTF8.self),
                      standardError: String(decoding: try Data(contentsOf: errorFile), as: UTF8.self),
                      isTimedOut: isTimedOut)
    }

    /// Starts `arguments(attempt)` `attempts` times, each killed (SIGKILL) at a random point
    /// between `fractions` of `runTime` unless it finished, and calls `afterEach` with the
    /// attempt once the run is gone; returns how many runs were killed.
    static func killAtRandomPoints(
        attempts: Int, runTime: TimeInterval, fractions: ClosedRange<Double>,
        arguments: (Int) -> [String], afterEach: (Int) throws -> Void
    ) throws -> Int {
        var generator = SystemRandomNumberGenerator()
        var killed = 0
        for attempt in 0..<attempts {
            let process = Process()
            process.executableURL = executable
            process.arguments = arguments(attempt)
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            usleep(useconds_t(Double.random(in: fractions, using: &generator) * runTime * 1_000_000))
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                killed += 1
            }
            process.waitUntilExit()
            try afterEach(attempt)
        }
        return killed
    }

    /// A fresh temporary directory, removed by the caller.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("trackerless-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
