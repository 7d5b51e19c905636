import Foundation
import Testing

/// A standard output that cannot be written (a full disk, a closed descriptor, a closed pipe with
/// SIGPIPE ignored) ends the command with a message and exit status 1, never a trap.
@Suite("trackerless on a standard output it cannot write", .enabled(if: CommandRunner.isAvailable, "the trackerless executable was not built next to the tests"))
struct StandardOutputFailureTests {
    /// Runs the shell command that `shellCommand` makes of `trackerless rules`.
    static func rules(_ shellCommand: (String) -> String) throws -> (status: Int32, standardError: String) {
        let directory = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let errorFile = directory.appendingPathComponent("stderr")
        try Data().write(to: errorFile)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", shellCommand("'\(CommandRunner.executable.path)' rules")]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: errorFile)
        try process.run()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: try Data(contentsOf: errorFile), as: UTF8.self))
    }

    @Test("a full disk (/dev/full): exit 1 and the system's reason",
          .enabled(if: FileManager.default.fileExists(atPath: "/dev/full"), "no /dev/full here"))
    func fullDisk() throws {
        let result = try Self.rules { "\($0) > /dev/full" }
        #expect(result.status == 1)
        #expect(result.standardError == "trackerless: cannot write to standard output: No space left on device\n", "\(result.standardError)")
    }

    @Test("a closed standard output: exit 1 and the system's reason")
    func closed() throws {
        let result = try Self.rules { "\($0) >&-" }
        #expect(result.status == 1)
        #expect(result.standardError.hasPrefix("trackerless: cannot write to standard output: "), "\(result.standardError)")
    }

    @Test("a pipe closed by its reader, SIGPIPE ignored: exit 1 and the system's reason")
    func closedPipe() throws {
        // The reader closes the pipe at once; the writer starts 0.3 s later and meets it closed.
        let result = try Self.rules { #"(sleep 0.3; trap '' PIPE; \#($0); echo "status $?" >&2) | (exec <&-; sleep 1)"# }
        #expect(result.standardError == "trackerless: cannot write to standard output: Broken pipe\nstatus 1\n",
                "\(result.standardError)")
    }
}
