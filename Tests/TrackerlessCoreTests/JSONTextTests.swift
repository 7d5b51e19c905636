import Testing
import TrackerlessCore

/// JSONText: a value kept as its text by ``JSONReader/readText()`` and looked up later with a
/// reader, held to the tree (JSONParser) for what its lookups find.
@Suite("JSONText")
struct JSONTextTests {
    private static let document = #"""
        {"settings" : { "a": [1, {"domain": "x.example"}, "s"], "a": ["last"], "n": null,
          "s": "t\u00e9", "o": {"domain": 1, "domain": "y.example"} } , "next": true}
        """#

    /// The `settings` value of the document, read with readText.
    private static func settings() throws -> (JSONText, next: Bool) {
        try JSONReader.read(Array(document.utf8)) { (reader) throws(JSONReadError) in
            var text: JSONText?
            var next = false
            var members = try reader.enterObject(at: .root)
            while let key = try reader.nextKey(in: &members) {
                switch key {
                case "settings": text = try reader.readText()
                case "next": next = try reader.readBool(at: .root)
                default: try reader.skipValue()
                }
            }
            return (text ?? JSONText(.null), next)
        }
    }

    @Test("readText keeps the value's bytes as written and the reader goes on after it")
    func keepsBytes() throws {
        let (text, next) = try Self.settings()
        let written = #"{ "a": [1, {"domain": "x.example"}, "s"], "a": ["last"], "n": null,"#
        #expect(String(decoding: text.bytes, as: UTF8.self).hasPrefix(written))
        #expect(text.bytes.last == UInt8(ascii: "}"))
        #expect(next)
        guard case .object(let root) = try JSONParser.parse(Array(Self.document.utf8)) else {
            Issue.record("the document is an object")
            return
        }
        #expect(text.value == root["settings"])
    }

    @Test("lookups find the last member, treat null as absent, and agree with the tree")
    func lookups() throws {
        let (text, _) = try Self.settings()
        #expect(text.kind == .object)
        #expect(text.member("a")?.elements.compactMap(\.string) == ["last"])
        #expect(text.member("n") == nil)
        #expect(text.member("missing") == nil)
        #expect(text.member("s")?.string == "t\u{e9}")
        #expect(text.member("o")?.member("domain")?.string == "y.example")
        #expect(text.member("s")?.member("domain") == nil)
        #expect(text.members.map(\.key) == ["a", "a", "n", "s", "o"])
        #expect(text.members.first?.value.elements.map(\.kind) == [.number, .object, .string])
    }

    @Test("texts are equal when their values are, however written")
    func equality() throws {
        let written = try JSONReader.read(Array(#"{ "k" : [ 1 , "v" ] }"#.utf8)) { (reader) throws(JSONReadError) in try reader.readText() }
        let built = JSONText(.object(JSONObject([("k", .array([.number(1), .string("v")]))])))
        #expect(written.bytes != built.bytes)
        #expect(written == built)
        #expect(Set([written, built]).count == 1)
        #expect(written != JSONText(.array([])))
    }
}
