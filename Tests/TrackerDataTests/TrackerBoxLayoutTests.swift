import Testing
@testable import TrackerDataKit

/// The boxes a blocklist holds one of for each tracker (its owner) and for each rule with an
/// exception or metadata: their sizes are what a blocklist of 1,000,000 trackers holds them at.
@Suite("Tracker and rule boxes")
struct TrackerBoxLayoutTests {
    @Test("a rule's box holds its exceptions, cookies and fingerprinting inline and a pointer to the rest")
    func ruleBox() {
        // 120 bytes with every field inline: a box of 136, 144 with malloc's header.
        #expect(MemoryLayout<Tracker.Rule.RareFields>.size <= 56)
        var fields = Tracker.Rule.RareFields()
        #expect(fields.isEmpty)
        fields.comment = "why"
        #expect(!fields.isEmpty)
        fields.comment = nil
        #expect(fields.isEmpty && fields == Tracker.Rule.RareFields(), "cleared, the rarer fields' box is gone")
    }

    @Test("patterns shared by a tracker's rules read, compare and hash as patterns of their own")
    func sharedPatterns() {
        let texts = ["t1000\\.example/ads/", "short", "t1000\\.example/px/caf\u{e9}/\u{1F600}", "", "t1000\\.example/ok/ok"]
        let own = texts.enumerated().map { Tracker.Rule(rule: $1, action: $0 == 2 ? .ignore : nil, cookies: $0 == 0 ? 0.5 : nil) }
        var shared = own
        Tracker.Rule.Pattern.share(in: &shared)
        var kinds: [String] = []
        for (index, rule) in shared.enumerated() {
            if case .shared = rule.pattern { kinds.append("shared") } else { kinds.append("own") }
            #expect(rule.rule == texts[index])
            #expect(rule == own[index])
            #expect(own[index] == rule)
            #expect(rule.hashValue == own[index].hashValue)
            #expect(rule.action == own[index].action && rule.cookies == own[index].cookies)
            for other in shared.indices where other != index {
                #expect(rule != shared[other])
                #expect(rule != own[other])
            }
        }
        #expect(kinds == ["shared", "own", "shared", "own", "shared"], "only patterns a String cannot keep inline")
        // Changed, a rule's pattern is its own; the others keep theirs.
        var changed = shared
        changed[0].rule = "t1000\\.example/other/"
        #expect(changed[0].rule == "t1000\\.example/other/")
        #expect(changed[0] != shared[0])
        #expect(Array(changed[1...]) == Array(own[1...]))
        // A single long pattern has nothing to share with.
        var single = [own[0], own[1]]
        Tracker.Rule.Pattern.share(in: &single)
        if case .shared = single[0].pattern { Issue.record("one long pattern was given storage to share") }
        // Canonically equivalent patterns are equal, as `String`s are: "é" and "e" with an accent.
        var composed = [Tracker.Rule(rule: "t1000\\.example/caf\u{e9}"), Tracker.Rule(rule: "t1000\\.example/caf\u{65}\u{301}")]
        let decomposed = composed
        Tracker.Rule.Pattern.share(in: &composed)
        #expect(composed[0] == decomposed[1] && composed[1] == decomposed[0] && composed[0] == composed[1])
        #expect(composed[0].hashValue == decomposed[1].hashValue)
        #expect(MemoryLayout<Tracker.Rule>.stride <= 32)
    }
}
