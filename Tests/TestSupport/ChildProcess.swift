public import Foundation

/// Runs another program from a test: `swift` for the package builds, the harnesses.
public enum ChildProcess {
    /// The executable `name` from PATH, if there is one.
    public static func executable(named name: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        return path.split(separator: ":").map { URL(fileURLWithPath: String($0)).appendingPathComponent(name) }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// Runs `executable` with no standard input and both output streams into one file in `logs`
    /// (no pipe to fill up), and returns its exit status and that output.
    public static func run(_ executable: URL, _ arguments: [String], logs: URL) throws -> (status: Int32, output: String) {
        let log = logs.appendingPathComponent("log-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: log) }
        let handle = try FileHandle(forWritingTo: log)
        defer { try? handle.close() }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: try Data(contentsOf: log), as: UTF8.self))
    }
}
