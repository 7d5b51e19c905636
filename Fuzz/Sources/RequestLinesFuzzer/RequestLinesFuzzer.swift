import ContentRuleList
import FuzzSupport
import RuleEngineKit
import TrackerDataKit
import TrackerlessCore

// This module compiles the `trackerless` tool's request reader (TrackerlessCLI/ links to its
// files), so that requests are read by the code `bench` reads them with. The rest of the tool
// cannot be compiled here: it uses `package` declarations of the root package.

/// The JSON-lines requests of `trackerless decide` and `resolve` (one object a line), and the
/// request files of `bench` (a JSON array or JSON lines), as a host or a script would pipe them.
///
/// Invariants: reading never traps; decisions under a page cache (loads decided in order, as
/// `decide` does) equal those without one; the resolver decides every line without trapping.
@_cdecl("LLVMFuzzerTestOneInput")
public func requestLinesFuzzer(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes = FuzzInput.bytes(start, count)
    if let requests = try? RequestFile.requests(parsing: bytes, file: "requests.jsonl") {
        for request in requests.prefix(32) { _ = RequestLinesFixture.engine.actions(for: request) }
    }
    let engine = RequestLinesFixture.engine
    var cache = RuleEngine.PageCache()
    var namingCache = RuleEngine.PageCache()
    // `decide` and `resolve` read one JSON object a line, as below.
    for line in bytes.split(separator: 0x0A, omittingEmptySubsequences: false).prefix(32) {
        let read = try? JSONReader.read(Array(line)) { (reader) throws(JSONReadError) -> JSONStringMembers in
            try reader.readStringMembers(RequestFile.keys + ["site"], at: .root)
        }
        guard let members = read else { continue }
        if let request = try? RequestFile.request(from: members, defaultTopURL: RequestFile.defaultTopURL) {
            // With their rules (`decide`'s answer) and without (a host's decision), each with a
            // page cache against none.
            let named = engine.actions(for: request, cache: &namingCache)
            require(named == engine.actions(for: request), "\(request): the page cache changes the named actions")
            let applied = engine.decision(for: request, cache: &cache).appliedActions
            require(applied == engine.decision(for: request).appliedActions, "\(request): the page cache changes the decision")
            require(
                applied.lists.map(\.actions) == named.lists.map(\.actions),
                "\(request): the decision's actions are not the named actions")
        }
        if let url = try? members.requiredString("url"), let site = try? members.requiredString("site"),
            let type = try? members.requiredString("type")
        {
            _ = RequestLinesFixture.resolver.decision(forRequestURL: url, topURL: site, type: RequestType(rawValue: type))
        }
    }
    return 0
}

/// What the requests are decided with: a small rule list and the fuzzers' sample blocklist.
enum RequestLinesFixture {
    static let engine: RuleEngine = {
        let rules = #"""
            [{"trigger": {"url-filter": "^https?://([^/]*\\.)?tracker\\.example[:/]", "load-type": ["third-party"]},
              "action": {"type": "block"}},
             {"trigger": {"url-filter": ".*", "if-top-url": ["^https://site\\.example/"], "resource-type": ["script"]},
              "action": {"type": "ignore-previous-rules"}},
             {"trigger": {"url-filter": "^http://"}, "action": {"type": "make-https"}},
             {"trigger": {"url-filter": ".*"}, "action": {"type": "css-display-none", "selector": ".ad"}}]
            """#
        guard let list = try? RuleList(parsing: rules), let engine = try? RuleEngine(ruleList: list) else {
            fatalError("RequestLinesFixture rules")
        }
        return engine
    }()

    static let resolver = TrackerResolver(trackerData: FuzzTrackerData.sample)
}
