import Testing
import TrackerDataKit

@testable import RuleBuilder

/// A rule's host part is checked against a CNAME target with the resolver's matcher, so the
/// builder keeps or drops a cloaked rule as the resolver would match it, whatever the pattern.
@Suite("A rule's host part against a CNAME target")
struct CNAMETargetMatchingTests {
    private func matches(_ pattern: String, _ target: String, endingAtEnd: Bool = false) throws -> Bool? {
        let regex = try TrackerRuleRegex(parsing: pattern)
        return TrackerRuleRegex.matchesSubstring(regex.alternatives[0][...], of: target, endingAtEnd: endingAtEnd)
    }

    @Test("plain, class and repeated host parts, anywhere or ending at the end")
    func answers() throws {
        #expect(try matches(#"metrics\.tracker"#, "cdn.metrics.tracker.example") == true)
        #expect(try matches(#"METRICS\.tracker"#, "cdn.metrics.tracker.example") == true, "ASCII case is ignored")
        #expect(try matches(#"metrics\.tracker"#, "cdn.metric.tracker.example") == false)
        #expect(try matches(#"tracker\.example"#, "cdn.tracker.example", endingAtEnd: true) == true)
        #expect(try matches(#"tracker\.exam"#, "cdn.tracker.example", endingAtEnd: true) == false)
        #expect(try matches(#"c[a-z]n\d*\.tr"#, "cdn42.tracker.example") == true)
        #expect(try matches(#"(ads|pixel)\.tr"#, "pixel.tracker.example") == true)
        #expect(try matches(#"x?y*\.tracker"#, "cdn.tracker.example") == true, "empty repetitions")
    }

    /// The backtracking matcher used before gave up here ("too complex to check") after its step
    /// budget; the automaton answers.
    @Test("a pattern that backtracks exponentially is answered")
    func exponentialPattern() throws {
        let host = String(repeating: "a", count: 40) + ".example"
        #expect(try matches(#"(a+)+b"#, host) == false)
        #expect(try matches(#"(a+)+\.example"#, host, endingAtEnd: true) == true)
    }
}
