import Foundation
import Testing
import TrackerlessTestSupport
@testable import ContentRuleList

/// Random patterns of the subset and random ASCII URLs, checked against an independent regex
/// engine (ICU's, through NSRegularExpression) whose semantics coincide with JavaScript's on this
/// subset and alphabet (no line breaks in the URLs, so `.` and `$` agree).
@Suite("URLFilter differential test against NSRegularExpression")
struct URLFilterDifferentialTests {
    /// Fixed seed, same sequence on every platform.
    struct Generator {
        var random: SplitMixGenerator
        init(state: UInt64) { random = SplitMixGenerator(seed: state) }
        mutating func next() -> UInt64 { random.next() }
        mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
        mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }
    }

    static let literals = ["a", "b", "c", "A", "B", "/", ":", #"\."#, "x", "-", "_", "%", "1"]
    static let classes = ["[ab]", "[^a]", "[a-c]", "[^/]", "[A-b]", "[^a-c:]", #"[\.x]"#, "[b-]"]
    static let quantifiers = ["", "", "", "?", "*", "+", "*?", "+?", "??", "{0,1}", "{1,}", "{0,}"]

    static let loops: Set<String> = ["*", "+", "*?", "+?", "{1,}", "{0,}"]

    /// A random atom and whether it can match the empty string. A group that can match empty is
    /// never repeated with `*`/`+`: ICU's backtracking takes exponential time on those, while the
    /// automaton does not care.
    static func atom(_ g: inout Generator, depth: Int) -> (text: String, isNullable: Bool) {
        switch g.below(10) {
        case 0...4: return (g.pick(literals), false)
        case 5: return (".", false)
        case 6, 7: return (g.pick(classes), false)
        default:
            guard depth < 3 else { return (g.pick(literals), false) }
            let open = g.pick(["(", "(?:", "(?<n\(depth)x\(g.below(1000))>"])
            let inner = sequence(&g, depth: depth + 1, maxLength: 3)
            return (open + inner.text + ")", inner.isNullable)
        }
    }

    static func piece(_ g: inout Generator, depth: Int) -> (text: String, isNullable: Bool) {
        let (text, isNullable) = atom(&g, depth: depth)
        var quantifier = g.pick(quantifiers)
        if isNullable && loops.contains(quantifier) { quantifier = "?" }
        return (text + quantifier, isNullable || !(quantifier.isEmpty || quantifier.hasPrefix("+") || quantifier == "{1,}"))
    }

    static func sequence(_ g: inout Generator, depth: Int, maxLength: Int) -> (text: String, isNullable: Bool) {
        var text = ""
        var isNullable = true
        for _ in 0..<(1 + g.below(maxLength)) {
            let next = piece(&g, depth: depth)
            text += next.text
            isNullable = isNullable && next.isNullable
        }
        return (text, isNullable)
    }

    static func pattern(_ g: inout Generator) -> String {
        (g.below(3) == 0 ? "^" : "") + sequence(&g, depth: 0, maxLength: 5).text + (g.below(4) == 0 ? "$" : "")
    }

    static func url(_ g: inout Generator) -> String {
        let alphabet = Array("abcAB/:.x-_%1")
        return String((0..<g.below(14)).map { _ in g.pick(alphabet) })
    }

    /// ICU numbers named groups too; names only need to be unique, which the generator ensures
    /// by construction (depth + random suffix) often enough; duplicates are skipped.
    @Test("Random patterns agree with NSRegularExpression (seed 20261122)")
    func randomPatterns() throws {
        var g = Generator(state: 20_261_122)
        var compared = 0
        var failures: [String] = []
        for _ in 0..<1500 {
            let pattern = Self.pattern(&g)
            let isCaseSensitive = g.below(2) == 0
            let filter: URLFilter
            do {
                filter = try URLFilter(parsing: pattern, isCaseSensitive: isCaseSensitive)
            } catch {
                if error.status == .yarrError, pattern.contains("(?<") { continue }  // duplicate group name
                failures.append("\(pattern): unexpected \(error)")
                continue
            }
            guard let regex = try? NSRegularExpression(
                pattern: pattern, options: isCaseSensitive ? [] : [.caseInsensitive]) else {
                continue
            }
            let thompson = try URLFilter(parsing: pattern, isCaseSensitive: isCaseSensitive,
                                         allowsPositionAutomaton: false)
            for _ in 0..<20 {
                let url = Self.url(&g)
                let actual = filter.matches(url)
                let viaThompson = thompson.matches(url)
                if viaThompson != actual {
                    failures.append("\(pattern) on \(url): position automaton \(actual), Thompson \(viaThompson)")
                }
                if filter.matchesEverything {
                    if !actual { failures.append("\(pattern) matches everything but not \(url)") }
                    continue
                }
                let range = NSRange(location: 0, length: url.utf16.count)
                let expected = regex.firstMatch(in: url, options: [], range: range) != nil
                compared += 1
                if actual != expected {
                    failures.append("\"\(pattern)\"\(isCaseSensitive ? " cs" : "") on \"\(url)\": got \(actual), RegExp says \(expected)")
                }
            }
        }
        #expect(compared > 10_000)
        #expect(failures.count == 0, "\(failures.count) disagreements, first: \(failures.prefix(20).joined(separator: "\n"))")
    }

    @Test("Long patterns use the sequence automaton and agree with NSRegularExpression and Thompson")
    func longPatterns() throws {
        var g = Generator(state: 7)
        var failures: [String] = []
        var matched = 0
        for _ in 0..<150 {
            // Mostly single characters with at most three repetitions, so that ICU's backtracking
            // stays polynomial of low degree on these URLs.
            var pattern = ""
            var repetitions = 0
            for _ in 0..<(64 + g.below(20)) {
                pattern += g.below(15) > 0 ? "." : g.pick(["[^a]", "[^/]", "[a-c]", "x", "/"])
                if repetitions < 3 && g.below(20) == 0 {
                    pattern += g.pick(["*", "+", "?"])
                    repetitions += 1
                }
            }
            guard let filter = try? URLFilter(parsing: pattern, isCaseSensitive: false),
                  let thompson = try? URLFilter(parsing: pattern, isCaseSensitive: false, allowsPositionAutomaton: false),
                  let regex = try? NSRegularExpression(pattern: pattern, options: [.caseInsensitive]) else { continue }
            if !filter.matchesEverything && filter.automatonKind != "sequence" {
                failures.append("\"\(pattern)\" uses the \(filter.automatonKind) automaton")
            }
            for _ in 0..<20 {
                var url = ""
                for _ in 0..<(60 + g.below(40)) { url.append(g.pick(Array("abcAB/:.x-_%1"))) }
                if filter.matchesEverything { continue }
                let expected = regex.firstMatch(in: url, options: [], range: NSRange(location: 0, length: url.utf16.count)) != nil
                if expected { matched += 1 }
                if filter.matches(url) != expected || thompson.matches(url) != expected {
                    failures.append("\"\(pattern)\" on \"\(url)\": got \(filter.matches(url)), Thompson \(thompson.matches(url))")
                }
            }
        }
        #expect(matched > 100 && matched < 2900, "matched \(matched) of 3000")
        #expect(failures.count == 0, "\(failures.prefix(10).joined(separator: "\n"))")
    }

    /// Sequences longer than one word of positions, with many quantifiers, skippable runs that
    /// cross word boundaries, groups around one set, unquantified groups and `$`: the sequence
    /// automaton must answer as the Thompson automaton does (the reference for exact semantics).
    @Test("Long sequences with many quantifiers: sequence automaton == Thompson")
    func longSequences() throws {
        var g = Generator(state: 20261126)
        var failures: [String] = []
        var matched = 0, compared = 0
        for round in 0..<300 {
            var pattern = g.below(4) == 0 ? "^" : ""
            for _ in 0..<(60 + g.below(60)) {
                pattern += g.below(8) > 0
                    ? g.pick([".", "[ab]", "[^/]"]) : g.pick(["a", "b", "[^b]", "(a)", "(?:b)", "(ab)", "/"])
                if g.below(3) == 0 { pattern += g.pick(["*", "+", "?"]) }
                // A long run of skippable positions, so that the carry crosses words.
                if g.below(40) == 0 { pattern += String(repeating: "a?", count: 70) }
            }
            if g.below(5) == 0 { pattern += "$" }
            guard let filter = try? URLFilter(parsing: pattern, isCaseSensitive: round % 2 == 0),
                  let thompson = try? URLFilter(parsing: pattern, isCaseSensitive: round % 2 == 0, allowsPositionAutomaton: false)
            else { continue }
            if filter.matchesEverything { continue }
            // Normalization may leave 63 positions or fewer: the one-word automaton then.
            if filter.automatonKind == "thompson" && !pattern.contains("(ab)") {
                failures.append("\"\(pattern)\" uses the \(filter.automatonKind) automaton")
            }
            for _ in 0..<10 {
                var url = "http://x.org/"
                for _ in 0..<g.below(400) { url.append(g.pick(Array("aaaaabbbA/."))) }
                let expected = thompson.matches(url)
                compared += 1
                if expected { matched += 1 }
                if filter.matches(url) != expected {
                    failures.append("\"\(pattern)\" on \"\(url)\": got \(!expected)")
                }
            }
        }
        #expect(matched > 50 && matched < compared - 50, "matched \(matched) of \(compared)")
        #expect(failures.isEmpty, "\(failures.count) failures: \(failures.prefix(5).joined(separator: "\n"))")
    }

    /// The hard corner: a 50,000-character url-filter on a long URL. The answers are checked
    /// here; BENCHMARKS.md has the time (`TrackerlessBenchmarks --long-filter-only`).
    @Test("A 50,000-character filter uses the sequence automaton and answers right")
    func fiftyThousandCharacters() throws {
        let urls = ["http://x.org/" + String(repeating: "a", count: 20_000),
                    "http://x.org/" + String(repeating: "ab", count: 26_000),
                    "http://x.org/" + String(repeating: "ab", count: 8_000)]
        // 16,666 a's in order; 25,000 a's each followed by any character; 10,000 letters.
        let cases: [(pattern: String, answers: [Bool])] = [
            (String(repeating: "a.*", count: 16_666), [true, true, false]),
            (String(repeating: "a.", count: 25_000), [false, true, false]),
            (String(repeating: "[a-z]", count: 10_000), [true, true, true]),
        ]
        for (pattern, answers) in cases {
            let filter = try URLFilter(parsing: pattern, isCaseSensitive: false)
            #expect(filter.automatonKind == "sequence")
            #expect(urls.map { filter.matches($0) } == answers, "\(pattern.prefix(12))…")
        }
    }
}
