import Foundation
import Testing
import TrackerlessTestSupport

/// `trackerless navigate`: the navigation decision for hosts and scripts that are not Swift.
@Suite(.enabled(if: CommandRunner.isAvailable, "the trackerless executable was not built next to the tests"))
struct NavigateCommandTests {
    static let suites = "privacy-reference-tests"

    /// One JSON line per navigation in, the answers out, parsed.
    static func navigate(_ arguments: [String], _ lines: [[String: String]]) throws -> [[String: Any]] {
        let input = try lines.map { String(decoding: try JSONSerialization.data(withJSONObject: $0), as: UTF8.self) }.joined(separator: "\n") + "\n"
        let result = try CommandRunner.run(["navigate"] + arguments, input: input)
        #expect(result.status == 0, "\(result.standardError)")
        return try result.standardOutput.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
    }

    @Test("tracking parameters and AMP links: the URL to load, with the reasons",
          .enabled(if: SharedData.shouldRun(suites + "/url-parameters/config_reference.json"), SharedData.skipMessage))
    func url() throws {
        let parameters = SharedData.path(Self.suites + "/url-parameters/config_reference.json")
        let answers = try Self.navigate(["--privacy-config", parameters], [
            ["url": "http://example.com/?a=123&gclid=test&fbclid=value&b=456"],
            ["url": "http://allowlisted.com/test.html?gclid=test"],
        ])
        #expect(answers.map { $0["url"] as? String } == ["http://example.com/?a=123&b=456", "http://allowlisted.com/test.html?gclid=test"])
        #expect(answers.map { $0["reasons"] as? [String] } == [["tracking parameters removed"], []])

        let amp = SharedData.path(Self.suites + "/amp-protections/config_reference.json")
        let ampAnswers = try Self.navigate(["--privacy-config", amp], [
            ["url": "https://www.google.com/amp/s/www.example.com/some/article?q=1"],
            ["url": "https://www.bbc.com/news/world-asia-china-19432800.amp"],
        ])
        #expect(ampAnswers.map { $0["url"] as? String } == ["https://www.example.com/some/article?q=1", "https://www.bbc.com/news/world-asia-china-19432800.amp"])
        #expect(ampAnswers.map { $0["ampDetected"] as? Bool } == [false, true])
    }

    @Test("GPC follows the user's setting and the header scope; the referrer is trimmed across owners",
          .enabled(if: SharedData.shouldRun(suites + "/referrer-trimming/config_reference.json"), SharedData.skipMessage))
    func headers() throws {
        let gpc = SharedData.path(Self.suites + "/global-privacy-control/config_reference.json")
        let site = ["url": "http://anotherexample.com/"]
        #expect((try Self.navigate(["--privacy-config", gpc], [site])[0]["headers"] as? [String: String]) == [:])
        #expect((try Self.navigate(["--privacy-config", gpc, "--gpc-header", "every-request"], [site])[0]["headers"] as? [String: String]) == ["Sec-GPC": "1"])
        #expect((try Self.navigate(["--privacy-config", gpc, "--gpc", "off", "--gpc-header", "every-request"], [site])[0]["headers"] as? [String: String]) == [:])

        let folder = Self.suites + "/referrer-trimming/"
        let answers = try Self.navigate(
            ["--privacy-config", SharedData.path(folder + "config_reference.json"), "--tds", SharedData.path(folder + "tracker_radar_reference.json")],
            [["url": "https://tracker.com/whatever", "initiator": "https://super.safe1.com/a?b=1", "referrer": "https://super.safe1.com/a?b=1"],
             ["url": "https://company1.co.uk/x", "initiator": "https://company1.com/a?b=1", "referrer": "https://company1.com/a?b=1"]])
        #expect(answers.map { ($0["headers"] as? [String: String])?["Referer"] } == ["https://super.safe1.com/", "https://company1.com/a?b=1"])
        #expect(answers.map { $0["reasons"] as? [String] } == [["referrer trimmed"], []])
    }

    @Test("--https-filter upgrades a navigation to a host of DuckDuckGo's filter, not one of its allowlist",
          .enabled(if: SharedData.shouldRun(suites + "/https-upgrades/tests.json"), SharedData.skipMessage))
    func httpsFilter() throws {
        let folder = Self.suites + "/https-upgrades/"
        let directory = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for (name, reference) in [
            ("https_bloomfilter.bin", "https_bloomfilter_reference.bin"), ("https_bloomfilter_spec.json", "https_bloomfilter_spec_reference.json"),
            ("https_allowlist.json", "https_allowlist_reference.json"),
        ] {
            try FileManager.default.createSymbolicLink(
                atPath: directory.appendingPathComponent(name).path, withDestinationPath: SharedData.path(folder + reference))
        }
        let answers = try Self.navigate(
            ["--privacy-config", SharedData.path(folder + "config_reference.json"), "--https-filter", directory.path],
            [["url": "http://firsttest.com/path/file.html?q=1#f"], ["url": "http://secondtest.com/path/file.html"]])
        #expect(answers.map { $0["url"] as? String } == ["https://firsttest.com/path/file.html?q=1#f", "http://secondtest.com/path/file.html"])
        #expect(answers.map { $0["reasons"] as? [String] } == [["upgraded to https"], []])
        let missing = try CommandRunner.run(["navigate", "--privacy-config", SharedData.path(folder + "config_reference.json"), "--https-filter", "/nonexistent"], input: "")
        #expect(missing.status == 1 && missing.standardError.contains("/nonexistent/https_bloomfilter"), "\(missing.standardError)")
    }

    @Test("navigate without a configuration, or with a bad --gpc, is a usage error")
    func usage() throws {
        #expect(try CommandRunner.run(["navigate"]).status == 2)
        let bad = try CommandRunner.run(["navigate", "--privacy-config", "x.json", "--gpc", "maybe"])
        #expect(bad.status == 2 && bad.standardError.contains("--gpc takes on or off"), "\(bad.standardError)")
    }
}
