import ContentRuleList
@testable import RuleBuilder
import Testing

/// The host-end layout (``HostEndLayout``): host-only blocks first with fixed ends, the fix-up for
/// URLs with a password, the blocks again behind the `@`, then the list; blocks that an earlier
/// exception may cancel, and blocks whose host keeps its automaton for another rule (a path block,
/// an exception), stay in place. Every load is checked against the resolver
/// (``BuiltRules/blocks(_:on:_:sourceLocation:)``).
@Suite("Rule builder: host-only blocks with fixed host ends")
struct HostEndLayoutTests {
    static let trackers = [
        tracker("tracker.example", owner: "Owner"),
        tracker("sub.tracker.example", owner: "Other"),
        tracker("paths.example", default: "ignore", rules: #"[{"rule": "paths\\.example/ads/"}]"#),
        tracker("t.example", rules: #"[{"rule": "t\\.example/ok/", "action": "ignore"}]"#),
    ]
    static let entities = #"{"Owner": {"domains": ["tracker.example", "owner.example"]}}"#
    static let domains = #"{"tracker.example": "Owner", "owner.example": "Owner"}"#
    static let blocklist = tds(trackers + [tracker("plain.com")], entities: entities, domains: domains)

    @Test("the list starts with the movable blocks' fixed ends, then the fix-up, then the blocks behind the @", arguments: [WebKitTarget.safari16, .webKitGTK2_44, .webKitGTK2_50, .newest])
    func layout(target: WebKitTarget) throws {
        let rules = try BuiltRules(Self.blocklist, settings: RuleListBuilder.Settings(target: target))
        let filters = rules.build.ruleLists[0].rules.map(\.trigger.urlFilter)
        let fixUp = try #require(filters.firstIndex(of: HostEndLayout.passwordURL))
        // plain.com moves (under a listed suffix, so not even 2.44 needs its own site named).
        // tracker.example keeps its exact end: its own-site exception starts
        // as its block does, so its automaton stays; so does t.example's (its exception for
        // /ok/), and sub.tracker.example starts by cancelling tracker.example's rules for its hosts.
        #expect(filters[..<fixUp] == [#"^[^:]+://+([^/]+[.@])?plain\.com[:/]"#, #"^[^:]+:/+/+([^/]+[.@])?plain\.com\.[:/]"#])
        #expect(filters[(fixUp + 1)...].prefix(2) == [
            #"^[^:]+://+[^/]*@([^/]+\.)?plain\.com[:/]"#, #"^[^:]+:/+/+[^/]*@([^/]+\.)?plain\.com\.[:/]"#,
        ])
        let blocks = rules.build.ruleLists[0].rules.filter { $0.action == .block }.map(\.trigger.urlFilter)
        for host in [#"tracker\.example"#, #"sub\.tracker\.example"#, #"t\.example"#] {
            #expect(blocks.contains(#"^[^:]+://+([^/]+[.@])?"# + host + #"\.?(:[0-9]+)?/"#))
        }
        #expect(!blocks.contains { $0.hasSuffix("[:/]") && !$0.contains("plain") })
        #expect(rules.build.ruleLists[0].rules.filter { $0 == HostEndLayout.passwordFixUp }.count == 1)

        var checked = 0
        for host in ["tracker.example", "sub.tracker.example", "t.example", "paths.example", "plain.com"] {
            for spelled in [
                host, "\(host).", "\(host):8080", "\(host).:443", "cdn.\(host)", "u@\(host)", "u:p@\(host)", "u:p@\(host).:80",
                "\(host):pw@evil.example", "\(host).:pw@evil.example", "x\(host)", "\(host).evil.example", "u:\(host)@evil.example",
            ] {
                for path in ["/x.js", "/ok/x.js", "/ads/x.js"] {
                    // Not on the tracker's own site: there the webkitgtk targets' lists block its
                    // final-dot host, which the resolver finds first party (BENCHMARKS.md).
                    for page in ["https://news.example/", "https://owner.example/"] {
                        _ = rules.blocks("https://\(spelled)\(path)", on: page)
                        checked += 1
                    }
                }
            }
        }
        #expect(checked == 5 * 13 * 3 * 2)
    }

    @Test("where no block frees its automaton none moves: the fix-up comes first and cancels nothing", arguments: [WebKitTarget.safari16, .webKitGTK2_50])
    func nothingMoves(target: WebKitTarget) throws {
        let rules = try BuiltRules(
            tds(Self.trackers, entities: Self.entities, domains: Self.domains), settings: RuleListBuilder.Settings(target: target))
        let list = rules.build.ruleLists[0].rules
        #expect(list.first == HostEndLayout.passwordFixUp)
        #expect(list.filter { $0 == HostEndLayout.passwordFixUp }.count == 1)
        #expect(!list.contains { $0.trigger.urlFilter.hasSuffix("[:/]") && $0.action == .block })
        for url in ["https://tracker.example:pw@evil.example/x.js", "https://u:p@t.example./x.js", "https://paths.example:8080/ads/x"] {
            _ = rules.blocks(url, on: "https://news.example/")
        }
    }

    /// Safari 15 decides third party by origin: every tracker's section ends with an exception
    /// naming its own site, whose `if-top-url` rules are most of the list's compile time, and the
    /// layout's blocks made its lists slower (BENCHMARKS.md).
    @Test("Safari 15's lists (the oldest target) keep every block in its section with the exact host end, and no fix-up")
    func notForSafari15() throws {
        #expect(!HostEndLayout.isUsed(for: .oldest) && !HostEndLayout.isUsed(for: .safari15))
        #expect(HostEndLayout.isUsed(for: .safari16) && HostEndLayout.isUsed(for: .webKitGTK2_44))
        let rules = try BuiltRules(Self.blocklist, settings: RuleListBuilder.Settings(target: .oldest))
        let list = rules.build.ruleLists[0].rules
        #expect(!list.contains(HostEndLayout.passwordFixUp))
        let filters = list.map(\.trigger.urlFilter)
        #expect(!filters.contains { $0.hasSuffix("[:/]") || $0.contains("[^/]*@") })
        #expect(filters.contains(#"^[^:]+://+([^/]+[.@])?tracker\.example\.?(:[0-9]+)?/"#))
        for url in ["https://tracker.example./x.js", "https://tracker.example:pw@evil.example/x.js", "https://u:p@t.example/x.js"] {
            _ = rules.blocks(url, on: "https://news.example/")
        }
    }

    @Test("the hosts that exceptions name")
    func exceptionHosts() {
        #expect(HostEndLayout.host(ofException: #"^[^:]+://+([^/]+[.@])?t\.example\.?(:[0-9]+)?/"#) == "t.example")
        #expect(HostEndLayout.host(ofException: #"^[^:]+://+([^/]+[.@])?t\.example\.?(:[0-9]+)?/ok/"#) == "t.example")
        #expect(HostEndLayout.host(ofException: #"^[^:]+://+([^/]*@)?[^:/]*sub\.t\.example\.?(:[0-9]+)?/"#) == "sub.t.example")
        #expect(HostEndLayout.host(ofException: ".*") == nil)
        #expect(HostEndLayout.host(ofException: #"^[^:]+://+[^/]*:[^/]*@"#) == nil)
    }

    @Test("an exception may cancel a block of its host, of a host ending with it, or of a parent domain")
    func movability() {
        var movability = HostEndLayout.Movability()
        movability.addIgnored("sub.t.example")
        #expect(movability.mayCancel("sub.t.example"))
        #expect(movability.mayCancel("a.sub.t.example"))
        #expect(movability.mayCancel("xsub.t.example"))
        #expect(movability.mayCancel("t.example"))
        #expect(movability.mayCancel("example"))
        #expect(!movability.mayCancel("other.example"))
        #expect(!movability.mayCancel("u.t.example"))
    }
}
