import Foundation
import Testing
import TrackerlessTestSupport

/// Every command that writes a FILE it is given (`--output`, `--swift-output`, `--html`) writes a
/// device or FIFO directly: `--output /dev/null` run as root must not rename a file over
/// /dev/null. A FIFO that no process reads is an error at once, not a wait. The devices here are
/// nodes equal to /dev/null made in the test's own directory, never the real one.
@Suite("trackerless --output on a device or FIFO", .enabled(if: CommandRunner.isAvailable, "the trackerless executable was not built next to the tests"))
struct DeviceOutputTests {
    /// Every way a command writes one file.
    static let commands = [
        "compile --output", "rules --output", "cookies --output", "scripts --swift-output", "stats --output",
        "stats --stream --output", "stats --html",
    ]

    /// Longer than any of these commands takes: only stops a command that waits.
    static let deadline: TimeInterval = 120

    /// A scratch directory with what the commands read.
    struct Inputs {
        let directory: URL

        init() throws {
            directory = try CommandRunner.temporaryDirectory()
            try Data(EngineCommandTests.list.utf8).write(to: URL(fileURLWithPath: path("list.json")))
            let page = "https://site.example/"
            let message = StatsCommandTests.message(page: page, document: "aaaaaaaaaaaaaaaa", urls: ["https://ads.tracker.test/1.js"])
            let recording = #"{"tab": "a", "navigate": "\#(page)"}"# + "\n" + #"{"tab": "a", "message": \#(message)}"# + "\n"
            try Data(recording.utf8).write(to: URL(fileURLWithPath: path("recording.jsonl")))
        }

        func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

        /// The arguments of `command` (one of ``DeviceOutputTests/commands``) writing its file to `output`.
        func arguments(_ command: String, output: String) -> [String] {
            let words = command.split(separator: " ").map(String.init)
            let inputs: [String] = switch words[0] {
            case "compile": ["--rules", path("list.json")]
            case "scripts": ["--output", path("scripts")]
            case "stats": ["--messages", path("recording.jsonl")]
            default: []
            }
            return [words[0]] + inputs + words.dropFirst() + [output]
        }

        /// The temporary files left in the directory (`.<name>.tmp-...`).
        func temporaries() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.contains(".tmp-") }
        }

        func remove() { try? FileManager.default.removeItem(at: directory) }
    }

    @Test("a character device (a node equal to /dev/null) is written, and is still a character device",
          DeviceNode.mknodAllowed, arguments: commands)
    func characterDevice(command: String) throws {
        let inputs = try Inputs()
        defer { inputs.remove() }
        let node = inputs.path("null")
        try #require(DeviceNode.makeNull(at: node), "mknod: \(String(cString: strerror(errno)))")
        let result = try CommandRunner.run(inputs.arguments(command, output: node), deadline: Self.deadline)
        #expect(result.status == 0 && !result.isTimedOut, "\(result.standardError)")
        #expect(DeviceNode.fileType(node) == S_IFCHR)
        #expect(try inputs.temporaries() == [])
    }

    @Test("a FIFO that no process reads: exit 1 at once, naming it; the FIFO stays", arguments: commands)
    func fifoWithoutReader(command: String) throws {
        let inputs = try Inputs()
        defer { inputs.remove() }
        let fifo = inputs.path("out")
        try #require(mkfifo(fifo, 0o600) == 0)
        let result = try CommandRunner.run(inputs.arguments(command, output: fifo), deadline: Self.deadline)
        #expect(!result.isTimedOut, "the command waited for a reader")
        #expect(result.status == 1)
        #expect(result.standardError.contains("\(fifo): is a FIFO that no process reads; nothing written"), "\(result.standardError)")
        #expect(DeviceNode.fileType(fifo) == S_IFIFO)
        #expect(try inputs.temporaries() == [])
    }

    @Test("a FIFO that a process reads gets the output")
    func fifoWithReader() throws {
        let inputs = try Inputs()
        defer { inputs.remove() }
        let fifo = inputs.path("out")
        try #require(mkfifo(fifo, 0o600) == 0)
        // The reader is open before the command starts; the list (3 kB) fits in the pipe's buffer.
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        try #require(reader >= 0)
        defer { close(reader) }
        let result = try CommandRunner.run(inputs.arguments("rules --output", output: fifo), deadline: Self.deadline)
        #expect(result.status == 0 && !result.isTimedOut, "\(result.standardError)")
        var bytes = [UInt8](repeating: 0, count: 1 << 16)
        let count = read(reader, &bytes, bytes.count)
        let list = String(decoding: bytes.prefix(max(count, 0)), as: UTF8.self)
        #expect(list.hasPrefix("[{\"trigger\""), "\(list.prefix(100))")
        #expect(DeviceNode.fileType(fifo) == S_IFIFO)
    }

    /// `--output /dev/stdout` with standard output redirected to a file: the file standard output
    /// writes to is written through it, and the link (here one like /dev/stdout, in the test's
    /// directory) is not replaced.
    @Test("a link to the command's own standard output, a file: the output goes there and the link stays",
          .enabled(if: FileManager.default.fileExists(atPath: "/proc/self/fd/1"), "needs /proc/self/fd"))
    func ownStandardOutput() throws {
        let inputs = try Inputs()
        defer { inputs.remove() }
        let link = inputs.path("stdout")
        try #require(symlink("/proc/self/fd/1", link) == 0)
        let result = try CommandRunner.run(inputs.arguments("rules --output", output: link), deadline: Self.deadline)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.hasPrefix("[{\"trigger\""), "\(result.standardOutput.prefix(100))")
        #expect(DeviceNode.fileType(link) == S_IFLNK)
        #expect(try inputs.temporaries() == [])
    }

    @Test("rules --output DEVICE: the Click-to-Load lists are not written beside it, as on standard output",
          DeviceNode.mknodAllowed)
    func clickToLoadBesideDevice() throws {
        let inputs = try Inputs()
        defer { inputs.remove() }
        let tds = inputs.path("tds.json")
        try Data(RulesClickToLoadTests.tds.utf8).write(to: URL(fileURLWithPath: tds))
        let node = inputs.path("null")
        try #require(DeviceNode.makeNull(at: node), "mknod: \(String(cString: strerror(errno)))")
        let result = try CommandRunner.run(["rules", "--tds", tds, "--output", node], deadline: Self.deadline)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.contains("the Click-to-Load list of block-ctl-video is not written beside \(node)"),
                "\(result.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: inputs.directory.path).sorted()
                == ["list.json", "null", "recording.jsonl", "tds.json"])
        #expect(DeviceNode.fileType(node) == S_IFCHR)
    }
}
