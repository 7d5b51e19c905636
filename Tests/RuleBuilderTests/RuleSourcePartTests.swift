import ContentRuleList
import RuleBuilder
import Testing
import TrackerDataKit
import TrackerlessTestSupport

/// Each built rule of a tracker names which of the tracker's inputs it says: its default action,
/// one of its rules (by index, with the rule's text), or the exception for its owner's pages.
@Suite("Rule sources name the tracker's rule")
struct RuleSourcePartTests {
    /// A tracker that blocks by default, and one that blocks by a rule with an exception before
    /// it, both owned by an entity with a site of its own.
    static let tds = #"""
        {"trackers": {"ads.example": {"domain": "ads.example", "owner": {"name": "Ads Co"}, "default": "ignore",
           "rules": [{"rule": "ads\\.example/pixel/keep", "action": "ignore"}, {"rule": "ads\\.example/pixel"}]},
          "cdn.example": {"domain": "cdn.example", "owner": {"name": "Ads Co"}, "default": "block"}},
         "entities": {"Ads Co": {"domains": ["ads.example", "adsco-news.example"]}},
         "domains": {"ads.example": "Ads Co", "adsco-news.example": "Ads Co"}}
        """#

    @Test("a small tds: default, each rule by index and text, the first-party exception")
    func smallBlocklist() throws {
        let build = RuleListBuilder(trackerData: try TrackerData(parsing: Array(Self.tds.utf8))).build()
        let list = try #require(build.ruleLists.first)
        let sources = try #require(build.sources.first)
        try #require(sources.count == list.rules.count)
        let tracker = zip(list.rules, sources).filter { $0.1.kind == .tracker }
        let paths = tracker.map(\.1.path)
        // Each section: the default block, the rules last to first, the owner's exception.
        #expect(paths == [
            #"trackers["ads.example"].rules[1]"#, #"trackers["ads.example"].rules[0]"#, #"trackers["ads.example"].owner"#,
            #"trackers["cdn.example"].default"#, #"trackers["cdn.example"].owner"#,
        ] || paths == [
            #"trackers["cdn.example"].default"#, #"trackers["cdn.example"].owner"#,
            #"trackers["ads.example"].rules[1]"#, #"trackers["ads.example"].rules[0]"#, #"trackers["ads.example"].owner"#,
        ], "\(paths)")
        let rules = tracker.filter { $0.1.name == "ads.example" }
        try #require(rules.count == 3)
        #expect(rules[0].1.part == .rule(tracker: "ads.example", index: 1, text: #"ads\.example/pixel"#))
        #expect(rules[1].1.part == .rule(tracker: "ads.example", index: 0, text: #"ads\.example/pixel/keep"#))
        #expect(!rules[0].0.trigger.urlFilter.contains("keep") && rules[0].0.action == .block, "\(rules[0].0)")
        #expect(rules[1].0.trigger.urlFilter.contains("keep") && rules[1].0.action == .ignorePreviousRules, "\(rules[1].0)")
        let json = rules[0].1.jsonValue().jsonString()
        #expect(json.contains(#""tracker":"ads.example","part":"rule","index":1,"rule":"ads\\.example/pixel"}"#), "\(json)")
        // The configuration's rules name no tracker input.
        #expect(zip(list.rules, sources).filter { $0.1.kind == .configuration }.allSatisfy { $0.1.part == nil })
    }

    @Test("the bundled sample tds: every tracker rule's source corresponds to the tds rule it names")
    func sampleBlocklist() throws {
        let trackerData = try TrackerData(parsing: Array(TrackerData.sampleDocument.utf8))
        let checked = try Self.checkParts(of: trackerData)
        #expect(checked.rules > 0 && checked.defaults > 0, "\(checked)")
    }

    @Test("apple-tds: every tracker rule's source corresponds to the tds rule it names",
          .enabled(if: SharedData.shouldRun("tds/apple-tds.json"), SharedData.skipMessage))
    func appleBlocklist() throws {
        let trackerData = try TrackerData(contentsOfFile: SharedData.path("tds/apple-tds.json"))
        let checked = try Self.checkParts(of: trackerData)
        #expect(checked.rules > 1_000 && checked.defaults > 1_000 && checked.exceptions > 100, "\(checked)")
    }

    /// Checks each built rule whose source names a part of a tracker against that part in
    /// `trackerData`: a rule's text is the tds rule's at that index, and the built url-filter
    /// holds a word of that tds rule; a default is a block of a tracker whose default blocks;
    /// an owner's exception is an `ignore-previous-rules` with a condition. Reports every
    /// mismatch (the first 20) and returns how many of each were checked.
    static func checkParts(of trackerData: TrackerData) throws -> (rules: Int, defaults: Int, exceptions: Int) {
        let build = RuleListBuilder(trackerData: trackerData).build()
        try #require(build.sources.count == build.ruleLists.count)
        var counts = (rules: 0, defaults: 0, exceptions: 0)
        var problems: [String] = []
        for (listIndex, (list, sources)) in zip(build.ruleLists, build.sources).enumerated() {
            try #require(sources.count == list.rules.count)
            for (ruleIndex, (rule, source)) in zip(list.rules, sources).enumerated() {
                guard let part = source.part else {
                    if source.kind == .tracker, rule.action != .ignorePreviousRules || rule.trigger.condition != nil {
                        problems.append("list \(listIndex) rule \(ruleIndex) (\(source)): no part")
                    }
                    continue
                }
                let name = "list \(listIndex) rule \(ruleIndex) (\(source))"
                guard let tracker = trackerData.trackers[part.tracker] else {
                    problems.append("\(name): no tracker \(part.tracker)")
                    continue
                }
                switch part {
                case .defaultAction:
                    counts.defaults += 1
                    if rule.action != .block || tracker.defaultAction != .block { problems.append("\(name): \(rule.action) for default \(String(describing: tracker.defaultAction))") }
                case .rule(_, let index, let text):
                    counts.rules += 1
                    guard index < tracker.rules.count, tracker.rules[index].rule == text else {
                        problems.append("\(name): the tds has no rule \(index) \"\(text)\"")
                        continue
                    }
                    // A cloaked host's url-filter names the host in place of the tracker's domain.
                    let words = Self.words(of: tracker.rules[index].rule).filter { source.kind == .tracker || !part.tracker.contains($0) }
                    let filter = rule.trigger.urlFilter.lowercased()
                    if !words.isEmpty, !words.contains(where: filter.contains) {
                        problems.append("\(name): url-filter \(rule.trigger.urlFilter) has none of \(words)")
                    }
                case .firstPartyException:
                    counts.exceptions += 1
                    if rule.action != .ignorePreviousRules || rule.trigger.condition == nil { problems.append("\(name): not a conditional exception") }
                }
            }
        }
        #expect(problems.isEmpty, "\(problems.count) rules; first:\n\(problems.prefix(20).joined(separator: "\n"))")
        return counts
    }

    /// The runs of letters and digits of at least four characters in a tds rule, lowercased:
    /// words any url-filter made from it keeps (a host name, a path). Runs inside a group or
    /// next to a regex operator may be one alternative among several, so only those outside
    /// any group count.
    static func words(of rule: String) -> [String] {
        var words: [String] = []
        var current = ""
        var depth = 0
        var afterEscape = false
        func end() {
            if current.count >= 4 { words.append(current.lowercased()) }
            current = ""
        }
        for character in rule {
            if afterEscape {
                afterEscape = false
                end()
                continue
            }
            switch character {
            case "\\": afterEscape = true; end()
            case "(", "[": depth += 1; end()
            case ")", "]": depth = max(0, depth - 1); end()
            case "?", "*", "+", "{", "|":
                // The run before an operator may be shortened or repeated by it.
                current = ""
            default:
                if depth == 0, character.isLetter || character.isNumber { current.append(character) } else { end() }
            }
        }
        end()
        return words
    }
}
