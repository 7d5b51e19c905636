import Foundation
import Testing
import TrackerlessTestSupport

/// The README's command-line walk-through (the ```sh block after "The bundled sample:"), run as
/// written from the repository root, with `swift run trackerless` the built executable and `/tmp/`
/// a fresh directory: every command succeeds and does what its comment says.
@Suite(.enabled(if: CommandRunner.isAvailable, "the trackerless executable was not built next to the tests"))
struct ReadmeCommandLineTests {
    /// One command of the block (continuation lines joined) and its `#` comment.
    struct Command {
        var text: String
        var comment: String
    }

    static func commands() throws -> [Command] {
        let readme = try String(contentsOf: SharedData.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let after = try #require(readme.components(separatedBy: "The bundled sample:").dropFirst().first,
                                 "README.md has no \"The bundled sample:\"")
        let block = try #require(after.components(separatedBy: "```sh\n").dropFirst().first?.components(separatedBy: "\n```").first,
                                 "no ```sh block after \"The bundled sample:\"")
        var commands: [Command] = []
        var pending = ""
        for line in block.split(separator: "\n", omittingEmptySubsequences: true).map(String.init) {
            let parts = line.components(separatedBy: "  #")
            let code = parts[0].trimmingCharacters(in: .whitespaces)
            let comment = parts.dropFirst().joined(separator: "  #").trimmingCharacters(in: .whitespaces)
            if code.hasSuffix("\\") {
                pending += String(code.dropLast()) + " "
                continue
            }
            commands.append(Command(text: pending + code, comment: comment))
            pending = ""
        }
        return commands
    }

    @Test("the walk-through of the bundled sample runs as written and each comment holds")
    func walkThrough() throws {
        let commands = try Self.commands()
        #expect(commands.count == 5, "\(commands.map(\.text))")
        let directory = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var outputs: [String: String] = [:]
        for (index, command) in commands.enumerated() {
            #expect(command.text.contains("swift run trackerless "), "\(command.text)")
            // `/tmp/` first: the executable's own path may be under /tmp (CI's clone without ../shared is).
            let script = command.text
                .replacingOccurrences(of: "/tmp/", with: directory.path + "/")
                .replacingOccurrences(of: "swift run trackerless ", with: "'\(CommandRunner.executable.path)' ")
            let stdout = directory.appendingPathComponent("stdout-\(index)").path
            let run = try ChildProcess.run(
                URL(fileURLWithPath: "/bin/sh"),
                ["-c", "cd '\(SharedData.packageRoot.path)' && { \(script) ; } > '\(stdout)'"], logs: directory)
            #expect(run.status == 0, "\(command.text): \(run.output)")
            outputs[command.text] = String(decoding: FileManager.default.contents(atPath: stdout) ?? Data(), as: UTF8.self)
        }

        // `decide ... # {"blocked":true,...}`: the answer begins as the comment shows it.
        let decide = try #require(commands.first { $0.text.contains(" decide ") })
        let shown = decide.comment.replacingOccurrences(of: "...}", with: "")
        #expect(shown.hasPrefix(#"{"blocked":"#), "\(decide.comment)")
        #expect(outputs[decide.text]?.hasPrefix(shown) == true, "\(outputs[decide.text] ?? "")")

        // `scripts --output DIR # blocking.js, inference.js, ...`: each file named is written.
        let scripts = try #require(commands.first { $0.text.contains(" scripts ") })
        let names = scripts.comment.components(separatedBy: ", ").filter { $0 != "..." }
        #expect(names.count >= 4, "\(scripts.comment)")
        for name in names {
            let path = directory.appendingPathComponent("scripts").appendingPathComponent(name).path
            #expect(FileManager.default.fileExists(atPath: path), "scripts wrote no \(name)")
        }

        // `stats ... --html FILE # a forged message: rejected`: the page is written, the forgery counted.
        let stats = try #require(commands.first { $0.text.contains(" stats ") })
        #expect(stats.comment.contains("forged message: rejected"), "\(stats.comment)")
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("dashboard.html").path))
        let report = try #require(try JSONSerialization.jsonObject(with: Data((outputs[stats.text] ?? "").utf8)) as? [String: Any])
        #expect((report["rejections"] as? [String: Any])?["wrongSecret"] as? Int == 1, "\(outputs[stats.text] ?? "")")
    }
}
