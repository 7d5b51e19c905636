import ContentRuleList
@testable import RuleBuilder
import Testing
import TrackerlessCore

/// The case-sensitive spelling (``CaseSensitiveSpelling``): scheme and authority letters as
/// written, every later letter as `[xX]`, the pattern case-sensitive; the same URLs wherever the
/// authority is lowercase, as WebKit's URL parser writes it for every web URL.
@Suite("Rule builder: patterns spelled case-sensitively")
struct CaseSensitiveSpellingTests {
    @Test("letters after the authority are spelled in both cases, the scheme's and host's stay", arguments: [
        (#"^[^:]+://+([^/]+[.@])?tracker\.com\.?(:[0-9]+)?/"#, #"^[^:]+://+([^/]+[.@])?tracker\.com\.?(:[0-9]+)?/"#),
        (#"^[^:]+://+([^/]+[.@])?tracker\.com\.?(:[0-9]+)?/Pixel\.gif"#,
         #"^[^:]+://+([^/]+[.@])?tracker\.com\.?(:[0-9]+)?/[pP][iI][xX][eE][lL]\.[gG][iI][fF]"#),
        (#"^[^:]+:/+/+[^/]*@([^/]+\.)?tracker\.com\.[:/]"#, #"^[^:]+:/+/+[^/]*@([^/]+\.)?tracker\.com\.[:/]"#),
        (#"^https?://([^/]+[.@])?a\.com\.?(:[0-9]+)?/b.*c"#, #"^https?://([^/]+[.@])?a\.com\.?(:[0-9]+)?/[bB].*[cC]"#),
        // `[:/]` and `.` may take the `/` that starts the path: the letters after them may be the path's.
        (#"^[^:]+://+a\.com[:/]x"#, #"^[^:]+://+a\.com[:/][xX]"#),
        (#"^[^:]+://+.*tracker"#, #"^[^:]+://+.*[tT][rR][aA][cC][kK][eE][rR]"#),
        (#"^[^:]+://+[^:]*x"#, #"^[^:]+://+[^:]*[xX]"#),
        (#"^[^:]+://+a\.com\/b"#, #"^[^:]+://+a\.com\/[bB]"#),
        (#"^[^:]+://+a\.com/[0-9]+\.js$"#, #"^[^:]+://+a\.com/[0-9]+\.[jJ][sS]$"#),
    ])
    func spelling(pattern: String, expected: String) {
        #expect(CaseSensitiveSpelling.spelled(pattern) == expected)
    }

    @Test("a pattern is left as it is where a letter cannot be spelled or none is there", arguments: [
        ".*", #"^[^:]+://+[^/]*:[^/]*@"#, "tracker\\.com/x", #"^[^:]+://+a\.com/[a-z]+"#, #"^[^:]+://+a\.com/\w"#,
        #"^[^:]+://+Tracker\.com/"#, #"^[^:]+://+a\.com/[x"#,
    ])
    func leftAsItIs(pattern: String) {
        #expect(CaseSensitiveSpelling.spelled(pattern) == nil)
    }

    static let urls = [
        "https://tracker.com/pixel.gif", "https://tracker.com/PIXEL.GIF", "https://tracker.com/Pixel.Gif?a=B",
        "https://sub.tracker.com:8080/pixel.gif", "https://tracker.com./pixel.gif", "https://u:P@tracker.com/pixel.gif",
        "https://tracker.com:pw@evil.com/pixel.gif", "https://evil.com/tracker.com/pixel.gif", "http://a.com/b1c",
        "https://a.com/BXC", "https://a.com/x", "https://a.com/X", "https://a.com:8/x", "https://x.com/tracker",
        "https://x.com/a/TRACKER", "https://a.com/b", "https://a.com/B", "https://a.com/12.JS", "myapp://tracker.com/Pixel.gif",
        "wss://tracker.com/pixel.gif",
    ]
    static let patterns = [
        #"^[^:]+://+([^/]+[.@])?tracker\.com\.?(:[0-9]+)?/pixel\.gif"#, #"^[^:]+://+([^/]+[.@])?tracker\.com[:/]"#,
        #"^[^:]+://+[^/]*@([^/]+\.)?tracker\.com[:/]"#, #"^https?://([^/]+[.@])?a\.com\.?(:[0-9]+)?/b.*c"#,
        #"^[^:]+://+a\.com[:/]x"#, #"^[^:]+://+.*tracker"#, #"^[^:]+://+a\.com\/b"#, #"^[^:]+://+a\.com/[0-9]+\.js$"#,
    ]

    @Test("the spelled pattern matches the URLs the case-insensitive one does, where the authority is lowercase")
    func sameURLs() throws {
        for pattern in Self.patterns {
            let spelled = try #require(CaseSensitiveSpelling.spelled(pattern))
            let original = try URLFilter(parsing: pattern, isCaseSensitive: false)
            let sensitive = try URLFilter(parsing: spelled, isCaseSensitive: true)
            var matched = 0
            for url in Self.urls {
                let canonical = try #require(CanonicalURL(url)).stringWithoutFragment
                #expect(sensitive.matches(canonical) == original.matches(canonical), "\(pattern) on \(canonical)")
                if original.matches(canonical) { matched += 1 }
            }
            #expect(matched > 0, "no URL tells \(pattern) apart")
        }
    }

    @Test("a capital in the authority: the opaque host of another scheme is matched only in lowercase, as the resolver finds it")
    func capitalInAuthority() throws {
        let pattern = #"^[^:]+://+([^/]+[.@])?tracker\.com\.?(:[0-9]+)?/"#
        let spelled = try URLFilter(parsing: try #require(CaseSensitiveSpelling.spelled(pattern)), isCaseSensitive: true)
        let original = try URLFilter(parsing: pattern, isCaseSensitive: false)
        let url = try #require(CanonicalURL("myapp://Tracker.COM/x")).stringWithoutFragment
        #expect(url == "myapp://Tracker.COM/x")
        #expect(original.matches(url))
        #expect(!spelled.matches(url))
        // A web URL's host is lowercase, whatever was written.
        #expect(spelled.matches(try #require(CanonicalURL("HTTPS://Tracker.COM/x")).stringWithoutFragment))
    }

    static let blocklist = tds(
        [tracker("tracker.example", owner: "Owner", rules: #"[{"rule": "tracker\\.example/Ads/", "action": "block"}]"#),
         tracker("paths.example", default: "ignore", rules: #"[{"rule": "paths\\.example/Pixel\\.gif"}]"#),
         tracker("plain.example")],
        entities: #"{"Owner": {"domains": ["tracker.example", "owner.example"]}}"#,
        domains: #"{"tracker.example": "Owner", "owner.example": "Owner"}"#)

    @Test("lists of the targets with the host-end layout are spelled so, and block as the resolver does", arguments: [
        WebKitTarget.safari16, .webKitGTK2_44, .webKitGTK2_50, .webKitGTK2_54, .newest,
    ])
    func builtLists(target: WebKitTarget) throws {
        let rules = try BuiltRules(Self.blocklist, settings: RuleListBuilder.Settings(target: target))
        var spelledFilters = 0, spelledConditions = 0
        for rule in rules.build.ruleLists.flatMap(\.rules) {
            let trigger = rule.trigger
            let hasLetter = trigger.urlFilter.contains { $0.isLetter }
            #expect(trigger.urlFilterIsCaseSensitive == hasLetter, "\(trigger.urlFilter)")
            if hasLetter {
                spelledFilters += 1
                // Spelled once: spelling it again changes nothing (a host-only pattern) or finds
                // its later letters in classes, `[xX]`, which it leaves alone.
                let again = CaseSensitiveSpelling.spelled(trigger.urlFilter)
                #expect(again == nil || again == trigger.urlFilter, "\(trigger.urlFilter)")
            }
            if case .ifTopURL = trigger.condition {
                #expect(trigger.topURLFilterIsCaseSensitive)
                spelledConditions += 1
            }
        }
        #expect(spelledFilters > 0)
        #expect(spelledConditions > 0)
        for url in ["https://paths.example/pixel.gif", "https://paths.example/PIXEL.GIF", "https://paths.example/Pixel.gif?x=1",
                    "https://sub.paths.example:8080/pixel.GIF"] {
            #expect(rules.blocks(url, on: "https://news.example/"))
        }
        #expect(!rules.blocks("https://paths.example/other.gif", on: "https://news.example/"))
        #expect(rules.blocks("https://tracker.example/ADS/x.js", on: "https://news.example/"))
        #expect(!rules.blocks("https://tracker.example/ADS/x.js", on: "https://www.owner.example/"))
        #expect(rules.blocks("https://plain.example/X.js", on: "https://owner.example/"))
        // The resolver finds no tracker in an opaque host with capitals; the lists now agree.
        #expect(!rules.blocks("myapp://PLAIN.example/x.js", on: "https://news.example/"))
        #expect(rules.blocks("myapp://plain.example/x.js", on: "https://news.example/"))
    }

    @Test("Safari 15's lists, which have no host-end layout, keep their patterns as built")
    func safari15() throws {
        let rules = try BuiltRules(Self.blocklist)
        let triggers = rules.build.ruleLists.flatMap(\.rules).map(\.trigger)
        #expect(triggers.allSatisfy { !$0.urlFilterIsCaseSensitive && !$0.topURLFilterIsCaseSensitive })
    }
}
