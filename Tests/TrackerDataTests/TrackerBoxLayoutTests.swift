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
}
