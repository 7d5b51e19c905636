import Foundation
import Testing
import TrackerDataKit
import TrackerlessCore
import TrackerlessTestSupport
@testable import UserScripts

/// The rule programs blocking.js runs in place of a JavaScript `RegExp` (see ``RuleProgram``):
/// run by the script in Node, they answer as the resolver's matcher does.
@Suite("Rule programs")
struct RuleProgramTests {
    @Test(
        "a rule the resolver refuses for its size is left out of the script, with the resolver's error; one it keeps is kept",
        arguments: [
            "a{19998}", "a{19999}", "a{20000}", "a{19998}b", "(?:ab){9999}", "(?:ab){10000}", "x{0,9998}", "x{0,9999}",
            "x{0,10000}", "(?:a{100}){199}", "(?:a{100}){200}", "(?:a|b){6666}", "(?:a|b){6667}", "y{19998,}", "y{19999,}",
            "(?:z{0,99}){100}", "(?:z{0,99}){101}",
        ])
    func sizeLimit(_ rule: String) throws {
        let regex = try TrackerRuleRegex(parsing: rule)
        var resolverError: TrackerRuleRegex.ParseError?
        do { _ = try regex.matcher() } catch { resolverError = error }

        let tracker = Tracker(domain: "tracker.test", owner: CompactTrackerDataTests.owner, rules: [.init(rule: rule)])
        let compact = CompactTrackerData(trackerData: CompactTrackerDataTests.trackerData([tracker]))
        let kept = try CompactTrackerDataTests.rules(compact, "tracker.test").count
        if let resolverError {
            #expect(kept == 0)
            #expect(compact.warnings.map(\.description) == [
                "trackers[\"tracker.test\"].rules[0].rule: unusable regular expression \"\(rule)\": \(resolverError); the rule is left out",
            ])
        } else {
            #expect(kept == 1)
            #expect(compact.warnings.isEmpty)
        }
    }

    @Test(
        "every rule of the real blocklists answers in the script as in the resolver, on the real request URLs",
        .enabled(if: NodeRunner.isAvailable, "node not found"),
        .enabled(
            if: SharedData.shouldRun(SharedData.matchingTestRequests) && SharedData.realBlocklists.allSatisfy(SharedData.shouldRun),
            SharedData.skipMessage))
    func realRules() throws {
        // Each distinct expression once, named by its first JSON path.
        var seen = Set<String>()
        var rules: [(path: String, matcher: TrackerRuleRegex.Matcher, program: String, isText: Bool)] = []
        // Text a rule matches, or nearly: few real URLs match a rule that is more than text.
        var walks: [[UInt8]] = []
        var random = SplitMixGenerator(seed: 24)
        var refused: [String] = []
        for file in SharedData.realBlocklists {
            let data = try TrackerData(contentsOfFile: SharedData.path(file))
            for key in data.trackers.keys.sorted() {
                for (index, rule) in data.trackers[key]!.rules.enumerated() where seen.insert(rule.rule).inserted {
                    let path = "\(file): trackers[\"\(key)\"].rules[\(index)].rule \(rule.rule)"
                    guard let regex = try? TrackerRuleRegex(parsing: rule.rule) else {
                        refused.append(path)
                        continue
                    }
                    guard let matcher = try? regex.matcher() else {
                        refused.append(path)
                        continue
                    }
                    let program = RuleProgram.program(of: matcher)
                    let isText = !program.utf8.contains { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }
                    rules.append((path, matcher, program, isText))
                    walks.append(Self.walk(matcher.states, from: matcher.start, using: &random))
                    walks.append(Self.walk(matcher.states, from: matcher.start, using: &random))
                }
            }
        }
        let realURLs = MatchingTestRequest.all.map(\.url)
        try #require(realURLs.count == 8276, "\(SharedData.matchingTestRequests) holds \(realURLs.count) requests")
        try #require(rules.count > 2000, "only \(rules.count) usable rules in \(SharedData.realBlocklists)")
        // The real URLs, then for each rule a walk after a real URL, and another in capitals.
        var urls = realURLs
        for (index, walk) in walks.enumerated() {
            if index % 2 == 0 {
                urls.append(realURLs[index * 37 % realURLs.count] + String(decoding: walk, as: UTF8.self))
            } else {
                urls.append(String(decoding: walk.map { $0 &- UInt8(ascii: "a") < 26 ? $0 & ~0x20 : $0 }, as: UTF8.self))
            }
        }

        // Every rule against every URL: in the script, one line per URL with a 0 or 1 per rule.
        let lines = try Self.matchInNode(programs: rules.map(\.program), urls: urls)
        try #require(lines.count == urls.count, "node answered for \(lines.count) of \(urls.count) URLs")
        var mismatches: [String] = []
        var matches = 0
        var nonLiteralMatches = 0
        for (urlIndex, url) in urls.enumerated() {
            let answers = Array(lines[urlIndex].utf8)
            try #require(answers.count == rules.count, "node answered \(answers.count) rules for \(url)")
            let bytes = Array(url.utf8)
            let lowercased = bytes.map { $0 &- UInt8(ascii: "A") < 26 ? $0 | 0x20 : $0 }
            bytes.withUnsafeBufferPointer { bytes in
                lowercased.withUnsafeBufferPointer { lowercased in
                    for (ruleIndex, rule) in rules.enumerated() {
                        let swift = rule.matcher.matches(bytes, lowercased: lowercased)
                        let script = answers[ruleIndex] == UInt8(ascii: "1")
                        if swift { matches += 1 }
                        if swift, !rule.isText { nonLiteralMatches += 1 }
                        if swift != script { mismatches.append("\(rule.path) on \(url): resolver \(swift), script \(script)") }
                    }
                }
            }
        }
        print(
            "Rule programs: \(rules.count) rules × \(urls.count) URLs (\(realURLs.count) real), \(matches) matches (\(nonLiteralMatches) by programs "
                + "that are more than text), \(refused.count) rules refused by the resolver, \(mismatches.count) mismatches")
        for mismatch in mismatches.prefix(50) { Issue.record("\(mismatch)") }
        #expect(mismatches.isEmpty)
        // The comparison has both answers to compare, by programs of every kind.
        #expect(matches > 1000 && nonLiteralMatches > 100)
    }

    /// The characters of a random path through the NFA from `start`, towards the match: a
    /// printable character of each set read where the set has one.
    static func walk(_ states: [TrackerRuleRegex.Matcher.State], from start: Int, using random: inout SplitMixGenerator) -> [UInt8] {
        var text: [UInt8] = []
        var state = start
        for _ in 0..<400 {
            switch states[state] {
            case .byte(let set, let next):
                let printable = set.members.filter { $0 > 0x20 && $0 < 0x7F }
                let members = printable.isEmpty ? set.members : printable
                guard !members.isEmpty else { return text }
                text.append(random.pick(members))
                state = next
            case .split(let first, let second):
                state = random.chance(0.5) ? first : second
            case .start(let next), .end(let next):
                state = next
            case .match:
                return text
            }
        }
        return text
    }

    /// Runs this tree's blocking.js in Node and answers, for each URL, a line with `1` or `0` for
    /// each program: whether it matches.
    static func matchInNode(programs: [String], urls: [String]) throws -> [Substring] {
        let templates = try ScriptTemplates(directory: SharedData.packageRoot.appendingPathComponent("JSTemplates").path)
        let renderer = try ScriptRenderer(templates: templates, settings: ScriptSettings(bridge: .none))
        let scripts = renderer.render(trackerData: TrackerData())
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("trackerless-rule-programs-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: input) }
        var writer = JSONWriter()
        writer.write(.array([.array(programs.map(JSONValue.string)), .array(urls.map(JSONValue.string))]))
        try Data(writer.bytes).write(to: input)
        let driver = NodeRunner.withBlockingScript(scripts.blocking.source, """
            const [programs, urls] = JSON.parse(fs.readFileSync(\(JSONValue.string(input.path).jsonString()), 'utf8'));
            const matchers = programs.map((program) => api.ruleProgram(program));
            const lines = [];
            for (const url of urls) {
              let line = '';
              for (const matches of matchers) { line += matches(url) ? '1' : '0'; }
              lines.push(line);
            }
            process.stdout.write(lines.join('\\n') + '\\n');
            """)
        let result = try NodeRunner.run(driver)
        try #require(result.status == 0, "node failed: \(result.error)")
        return result.output.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map { $0 }
    }
}
