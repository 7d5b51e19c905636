import Testing
@testable import ContentRuleList
import TrackerlessTestSupport

@Suite("Plain domain conditions match like WebKit's rewritten regex")
struct DomainMatcherTests {
    @Test func examples() throws {
        let exact = try #require(DomainMatcher("webkit.org", isCaseSensitive: false))
        #expect(exact.matches("http://webkit.org/"))
        #expect(exact.matches("https://webkit.org:8080/x"))
        #expect(exact.matches("http://example.com/?u=http://webkit.org/"))
        #expect(exact.matches("HTTP://WEBKIT.ORG/"))
        #expect(!exact.matches("http://bugs.webkit.org/"))
        #expect(!exact.matches("http://webkit.org"))
        #expect(!exact.matches("http://u@webkit.org/"))
        #expect(!exact.matches("1://webkit.org/"))
        let star = try #require(DomainMatcher("*webkit.org", isCaseSensitive: false))
        #expect(star.matches("http://a.b.webkit.org/"))
        #expect(star.matches("http://webkit.org:1/"))
        #expect(!star.matches("http://notwebkit.org/"))
        #expect(!star.matches("http://a/b.webkit.org/"))
        #expect(DomainMatcher("a|b", isCaseSensitive: false) == nil)
        #expect(DomainMatcher("a+b", isCaseSensitive: false) == nil)
        #expect(DomainMatcher("*", isCaseSensitive: false) == nil)
    }

    @Test("Agrees with URLFilter on random domains and URLs", arguments: [false, true])
    func agreesWithTheRegex(isCaseSensitive: Bool) throws {
        var random = SplitMixGenerator(seed: isCaseSensitive ? 7 : 11)
        let domainPieces = ["a", "b", ".", "-", "_", "0", "ab"]
        let urlPieces = [
            "http://", "a+b://", "1://", "H://", ":/", "://", "a", "b", "A", "B", ".", "/", ":", "-", "_", "0", "ab",
            "a.b", "?u=", "#", "@", "x://a.", "HTTP://",
        ]
        var checked = 0
        var matched = 0
        for _ in 0..<400 {
            var domain = (0..<Int.random(in: 1...4, using: &random)).map { _ in
                domainPieces.randomElement(using: &random) ?? "a"
            }.joined()
            if Bool.random(using: &random) { domain = "*" + domain }
            guard let matcher = DomainMatcher(domain, isCaseSensitive: isCaseSensitive) else { continue }
            let filter = try URLFilter(
                parsing: Condition.topURLPattern(forDomain: domain), isCaseSensitive: isCaseSensitive)
            for _ in 0..<25 {
                let bare = domain.hasPrefix("*") ? String(domain.dropFirst()) : domain
                var url = ""
                for _ in 0..<Int.random(in: 1...7, using: &random) {
                    url += Int.random(in: 0..<4, using: &random) == 0 ? bare : (urlPieces.randomElement(using: &random) ?? "")
                }
                let expected = filter.matchesEverything || filter.matches(url)
                #expect(matcher.matches(url) == expected, "domain \(domain) url \(url)")
                checked += 1
                if expected { matched += 1 }
            }
        }
        #expect(checked > 1000)
        #expect(matched > 50, "the generator should produce matching URLs too")
    }
}
