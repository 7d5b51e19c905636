@testable import PrivacyStatsKit
import Testing
import TrackerlessCore

/// How a recording's message records are read: the body a host would have received, and the page
/// URL that starts a tab's page, whichever of the three forms the record takes.
@Suite("StatsRecording: message records")
struct StatsRecordingMessageTests {
    /// A message whose `page` and `url` are duplicated: the last of each counts, as in `JSON.parse`.
    static let body = #"{"trackerless":1,"page":{"url":"https://old.test/"},"page":{"url":"https://a.test/","url":"https://b.test/"},"seq":0}"#

    /// The record's body as text, and its page URL.
    static func message(_ line: String) throws -> (body: String, pageURL: String?) {
        let record = try #require(try StatsRecording.record(line: Array(line.utf8), file: "r.jsonl", lineNumber: 1))
        guard case .message(let body, let pageURL) = record.kind, case .bytes(let bytes) = body.storage else {
            Issue.record("\(line): not a message record of bytes: \(record.kind)")
            return ("", nil)
        }
        return (String(decoding: bytes, as: UTF8.self), pageURL)
    }

    @Test("an object, a string of JSON and a whole line give the body a host receives and the last page's last url")
    func threeForms() throws {
        // An object is written again (compact, members in order, duplicates kept), as a web
        // view's object would be; a string is the body as it stands.
        #expect(try Self.message(#"{"tab": "1", "message": \#(Self.body)}"#) == (Self.body, "https://b.test/"))
        let spaced = #"{"trackerless": 1, "page": {"url": "https://a.test/"}}"#
        #expect(try Self.message(#"{"tab": "1", "message": \#(JSONValue.string(spaced).jsonString())}"#) == (spaced, "https://a.test/"))
        let line = #"{"tab":"1","trackerless":1,"page":{"url":"https://old.test/"},"page":{"url":"https://a.test/","url":"https://b.test/"},"seq":0}"#
        #expect(try Self.message(line) == (line, "https://b.test/"))
    }

    @Test("the last message member counts; a page that is not an object, or a url that is not a string, gives no page URL")
    func lastMemberAndMissingPage() throws {
        #expect(try Self.message(#"{"tab": "1", "message": {"page": {"url": "https://a.test/"}}, "message": [1]}"#) == ("[1]", nil))
        #expect(try Self.message(#"{"message": {"page": {"url": "https://a.test/"}, "page": 3}}"#).pageURL == nil)
        #expect(try Self.message(#"{"message": {"page": {"url": "https://a.test/", "url": null}}}"#).pageURL == nil)
        #expect(try Self.message(#"{"message": "not json"}"#) == ("not json", nil))
    }

    @Test("navigate and close count only when they are a string and true; the tab defaults to 1")
    func otherRecords() throws {
        let navigate = try #require(try StatsRecording.record(
            line: Array(#"{"navigate": 5, "navigate": "https://a.test/", "close": false}"#.utf8), file: "r.jsonl", lineNumber: 1))
        guard case .navigate("https://a.test/") = navigate.kind else {
            Issue.record("\(navigate.kind)")
            return
        }
        #expect(navigate.tab == TabID("1"))
        let close = try #require(try StatsRecording.record(
            line: Array(#"{"tab": "x", "close": true, "navigate": 1}"#.utf8), file: "r.jsonl", lineNumber: 1))
        guard case .close = close.kind else {
            Issue.record("\(close.kind)")
            return
        }
        #expect(close.tab == TabID("x"))
    }
}
