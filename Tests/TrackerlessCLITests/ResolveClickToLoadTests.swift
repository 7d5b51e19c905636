import Foundation
import Testing
import TrackerlessCore
import TrackerlessTestSupport

/// privacy-reference-tests/click-to-load through `trackerless resolve`, each case's
/// `userUnblockedRuleActions` given as the line's `"unblocked"`.
@Suite(
    "resolve: the click-to-load reference tests",
    .enabled(if: CommandRunner.isAvailable, "the trackerless executable was not built next to the tests"),
    .enabled(if: SharedData.shouldRun, SharedData.skipMessage))
struct ResolveClickToLoadTests {
    @Test("all 17 cases, one line each, in order")
    func suite() throws {
        let cases = ClickToLoadCase.all
        #expect(cases.count == 17)
        let input = cases.map { test -> String in
            var writer = JSONWriter()
            writer.write(.object(JSONObject([
                ("url", .string(test.requestURL)), ("top", .string(test.topURL)), ("type", .string("script")),
                ("unblocked", .array(test.userUnblockedRuleActions.map(JSONValue.string))),
            ])))
            return String(decoding: writer.bytes, as: UTF8.self)
        }.joined(separator: "\n")
        let folder = ClickToLoadCase.folder
        let result = try CommandRunner.run([
            "resolve", "--tds", SharedData.path("\(folder)/tds_reference.json"),
            "--privacy-config", SharedData.path("\(folder)/config_reference.json"),
            "--surrogates", SharedData.path("\(folder)/surrogates_reference.txt"),
        ], input: input)
        #expect(result.status == 0, "\(result.standardError)")
        let lines = result.standardOutput.split(separator: "\n")
        try #require(lines.count == cases.count)
        for (test, line) in zip(cases, lines) {
            guard case .object(let answer) = try JSONParser.parse(Array(line.utf8)) else {
                Issue.record("\(test.name): not an object: \(line)")
                continue
            }
            let outcome = switch answer["action"] {
            case .string("block")?: "block"
            case .string("redirect")?: "redirect"
            default: "ignore"
            }
            #expect(outcome == test.expectedOutcome, "\(test.name): \(line)")
        }
    }

    @Test("unblocked must be an array of strings; the error names it")
    func badUnblocked() throws {
        let result = try CommandRunner.run(["resolve"], input: #"{"url":"https://ads.example/a.js","top":"https://news.example/","type":"script","unblocked":"block-ctl-fb"}"#)
        #expect(result.status == 1)
        #expect(result.standardOutput.contains("unblocked"), "\(result.standardOutput)")
    }
}
