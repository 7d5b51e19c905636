import Foundation
import Testing

/// The top page's URL is `"top"` on every command's input line, and `"frame"` is only ever a
/// requesting frame: the keys that meant the top page before (`"site"` in `resolve` and `https`,
/// `"frame"` in `navigate`) are refused by name, never read as missing or as something else.
@Suite(.enabled(if: CommandRunner.isAvailable, "the trackerless executable was not built next to the tests"))
struct TopPageKeyTests {
    @Test("navigate reads a frame's top page from \"top\" and refuses \"frame\", which names a requesting frame")
    func navigate() throws {
        let directory = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let configuration = directory.appendingPathComponent("config.json")
        try Data(#"{"features": {}, "unprotectedTemporary": []}"#.utf8).write(to: configuration)
        let result = try CommandRunner.run(["navigate", "--privacy-config", configuration.path], input: """
            {"url": "https://ads.example/frame.html", "top": "https://news.example/"}
            {"url": "https://ads.example/frame.html", "frame": "https://news.example/"}
            {"url": "https://ads.example/frame.html", "site": "https://news.example/"}
            """)
        #expect(result.status == 1)
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines.first?.hasPrefix(#"{"url":"https://ads.example/frame.html""#) == true, "\(lines)")
        #expect(lines.dropFirst().first == #"{"error":"line 2: \"frame\" is a requesting frame's URL, which navigate does not read; give the top page's URL as \"top\""}"#)
        #expect(lines.last == #"{"error":"line 3: \"site\" is now \"top\": the top page's URL, as in the address bar"}"#)
    }
}
