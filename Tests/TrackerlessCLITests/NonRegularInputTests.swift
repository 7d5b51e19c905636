import Foundation
import Testing

/// An input that is not a regular file (a FIFO nobody writes to) is refused at once, naming it,
/// instead of hanging the command.
@Suite("trackerless on a FIFO given as an input", .enabled(if: CommandRunner.isAvailable, "the trackerless executable was not built next to the tests"))
struct NonRegularInputTests {
    @Test("rules --tds FIFO: exit 1 naming the FIFO, at once")
    func fifo() throws {
        let directory = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let fifo = directory.appendingPathComponent("tds.json").path
        try #require(mkfifo(fifo, 0o600) == 0)
        let result = try CommandRunner.run(["rules", "--tds", fifo])
        #expect(result.status == 1)
        #expect(result.standardError.contains("\(fifo): is not a regular file (a FIFO, socket or device)"), "\(result.standardError)")
    }
}
