import Testing
import TrackerDataKit
@testable import URLPrefilter

@Suite("Prefilter entries")
struct PrefilterEntriesTests {
    struct Example: Sendable, CustomTestStringConvertible {
        var input: String
        var entry: String
        var testDescription: String { input }
    }

    @Test("Entries take the scheme-less form the OS probes", arguments: [
        Example(input: "example.com", entry: "example.com"),
        Example(input: "  Tracker.Example.  ", entry: "tracker.example"),
        Example(input: "https://ads.example/Banner/", entry: "ads.example/banner/"),
        Example(input: "HTTP://ads.example:80/x", entry: "ads.example/x"),
        Example(input: "ads.example:443", entry: "ads.example"),
        Example(input: "ads.example:8443/a?b=1#c", entry: "ads.example:8443/a?b=1#c"),
        Example(input: "bücher.example", entry: "xn--bcher-kva.example"),
        Example(input: "example.com/ä", entry: "example.com/%C3%A4"),
        Example(input: "example.com/a%2fb", entry: "example.com/a%2Fb"),
        Example(input: "www.apple.com/url-filter-test", entry: "www.apple.com/url-filter-test"),
        Example(input: "[2001:DB8::1]:8080/x", entry: "[2001:db8::1]:8080/x"),
    ])
    func canonicalForm(_ example: Example) throws {
        #expect(try PrefilterEntries([example.input]).entries == [example.entry])
    }

    @Test("A text list: comments and blank lines skipped, duplicates merged, sorted")
    func textList() throws {
        let entries = try PrefilterEntries(lines: "# trackers\n\nb.example\r\nA.example\n  a.example  \n", source: "list.txt")
        #expect(entries.entries == ["a.example", "b.example"])
    }

    struct BadEntry: Sendable, CustomTestStringConvertible {
        var line: String
        var message: String
        var testDescription: String { line }
    }

    @Test("Bad entries name the file, the line and the problem", arguments: [
        BadEntry(line: "exa mple.com", message: #"list.txt:2: "exa mple.com": a space is not allowed in an entry"#),
        BadEntry(line: "ftp://example.com", message: #"list.txt:2: "ftp://example.com": only http and https URLs are filtered; write the entry without a scheme"#),
        BadEntry(line: "example.com:99999", message: #"list.txt:2: "example.com:99999": the port must be a number from 0 to 65535"#),
        BadEntry(line: "a..example", message: #"list.txt:2: "a..example": the host has an empty label"#),
        BadEntry(line: "user@example.com", message: #"list.txt:2: "user@example.com": user names and passwords are not part of the URLs the OS probes"#),
        BadEntry(line: "/path/only", message: #"list.txt:2: "/path/only": an entry must start with a host name"#),
        BadEntry(line: "ex!ample.com", message: #"list.txt:2: "ex!ample.com": the host contains "!", which is not allowed in a host name"#),
    ])
    func badEntries(_ bad: BadEntry) {
        do {
            _ = try PrefilterEntries(lines: "good.example\n\(bad.line)\n", source: "list.txt")
            Issue.record("accepted \(bad.line)")
        } catch {
            #expect(error.description == bad.message)
        }
    }

    @Test("An empty list is an error naming the source")
    func emptyList() {
        #expect(throws: PrefilterError.noEntries(source: "list.txt")) {
            try PrefilterEntries(lines: "# nothing\n\n", source: "list.txt")
        }
        #expect(throws: PrefilterError.noEntries(source: "entries")) { try PrefilterEntries([String]()) }
    }

    @Test("From a tds: trackers blocked by default and the CNAMEs that cloak them")
    func fromTrackerData() throws {
        let tds = """
        {"trackers": {
            "Blocked.Example": {"domain": "blocked.example", "default": "block", "owner": {"name": "A"}},
            "ruled.example": {"domain": "ruled.example", "default": "ignore", "rules": [{"rule": "ruled\\\\.example/ads"}]}
         },
         "entities": {}, "domains": {},
         "cnames": {"metrics.site.example": "x.blocked.example", "cdn.site.example": "ruled.example"}}
        """
        let data = try TrackerData(parsing: Array(tds.utf8), file: "tds.json")
        let entries = try PrefilterEntries(trackerData: data, source: "tds.json")
        #expect(entries.entries == ["blocked.example", "metrics.site.example"])
    }

    @Test("A tds with nothing to block, and one with a bad tracker key, name the file")
    func badTrackerData() throws {
        let nothing = try TrackerData(parsing: Array(#"{"trackers": {}, "entities": {}, "domains": {}}"#.utf8))
        #expect(throws: PrefilterError.noEntries(source: "tds.json")) { try PrefilterEntries(trackerData: nothing) }
        let badKey = try TrackerData(parsing: Array(#"{"trackers": {"bad host": {"domain": "bad host", "default": "block"}}, "entities": {}, "domains": {}}"#.utf8))
        do {
            _ = try PrefilterEntries(trackerData: badKey, source: "tds.json")
            Issue.record("accepted a tracker key with a space")
        } catch {
            #expect(error.description == #"tds.json: trackers["bad host"]: "bad host": a space is not allowed in an entry"#)
        }
    }
}
