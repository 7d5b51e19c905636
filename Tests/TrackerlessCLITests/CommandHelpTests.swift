import Foundation
import Testing

/// The README's "`trackerless --help` lists the commands, `trackerless <command> --help` gives each
/// one's options ... usage errors exit with 2", for every command the top-level help lists.
@Suite(.enabled(if: CommandRunner.isAvailable, "the trackerless executable was not built next to the tests"))
struct CommandHelpTests {
    /// The commands of `trackerless --help`: the indented lines of its "Commands:" paragraph.
    static func listedCommands() throws -> [String] {
        let help = try CommandRunner.run(["--help"])
        try #require(help.status == 0, "\(help.standardError)")
        let paragraph = try #require(help.standardOutput.components(separatedBy: "Commands:\n").dropFirst().first,
                                     "no Commands: in\n\(help.standardOutput)")
        return paragraph.components(separatedBy: "\n\n")[0].split(separator: "\n").compactMap {
            $0.split(separator: " ").first.map(String.init)
        }
    }

    @Test("trackerless --help lists the commands; each has --help with its usage and options, and a wrong option exits 2 naming it")
    func everyCommand() throws {
        let commands = try Self.listedCommands()
        #expect(commands.count >= 14, "\(commands)")
        for command in commands {
            let help = try CommandRunner.run([command, "--help"])
            #expect(help.status == 0, "\(command) --help: \(help.standardError)")
            #expect(help.standardOutput.contains("trackerless \(command)"), "\(command) --help:\n\(help.standardOutput)")
            #expect(help.standardOutput.contains("  --"), "\(command) --help lists no option:\n\(help.standardOutput)")

            let wrong = try CommandRunner.run([command, "--no-such-option"], deadline: 60)
            #expect(wrong.status == 2, "\(command) --no-such-option: exit \(wrong.status)")
            #expect(wrong.standardError.contains("--no-such-option") || wrong.standardError.contains("no-such-option"),
                    "\(command) --no-such-option: \(wrong.standardError)")
        }
    }
}
