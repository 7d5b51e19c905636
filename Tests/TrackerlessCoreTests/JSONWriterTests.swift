import Testing
import TrackerlessCore

@Suite("JSONWriter")
struct JSONWriterTests {
    @Test("escapes only quote, backslash and control characters", arguments: [
        ("plain", #""plain""#),
        ("a\"b\\c", #""a\"b\\c""#),
        ("a/b", #""a/b""#),
        ("\n\r\t\u{08}\u{0C}", #""\n\r\t\b\f""#),
        ("\u{0}\u{1}\u{1F}", #""\u0000\u0001\u001f""#),
        ("é中😀\u{2028}", "\"é中😀\u{2028}\""),
        ("\u{7F}", "\"\u{7F}\""),
        ("", #""""#),
    ])
    func stringEscaping(input: String, expected: String) {
        var writer = JSONWriter()
        writer.writeString(input)
        #expect(String(decoding: writer.bytes, as: UTF8.self) == expected)
    }

    @Test("numbers print as JSON.stringify prints them", arguments: [
        (0.0, "0"), (-0.0, "0"), (1, "1"), (-42, "-42"), (1.5, "1.5"), (0.1, "0.1"), (-0.25, "-0.25"),
        (1e21, "1e+21"), (1e20, "100000000000000000000"), (123456789012, "123456789012"),
        (9007199254740992, "9007199254740992"), (1e-6, "0.000001"), (1e-7, "1e-7"), (1.5e-7, "1.5e-7"),
        (1.7976931348623157e308, "1.7976931348623157e+308"), (.leastNonzeroMagnitude, "5e-324"),
        (0.30000000000000004, "0.30000000000000004"), (123.456, "123.456"), (2.5e25, "2.5e+25"),
        (Double.nan, "null"), (Double.infinity, "null"), (-Double.infinity, "null"),
        (9.5e18, "9500000000000000000"), (-1234567.125, "-1234567.125"),
    ])
    func numberFormat(number: Double, expected: String) {
        var writer = JSONWriter()
        writer.writeNumber(number)
        #expect(String(decoding: writer.bytes, as: UTF8.self) == expected)
    }

    @Test("values are compact and keep member order and duplicates")
    func compactValues() {
        let value = JSONValue.object(JSONObject([
            ("z", .array([.number(1), .null, .bool(true), .bool(false)])),
            ("a", .string("x")),
            ("z", .object(JSONObject())),
        ]))
        #expect(value.jsonString() == #"{"z":[1,null,true,false],"a":"x","z":{}}"#)
        #expect(value.jsonBytes() == Array(value.jsonString().utf8))
    }

    @Test("raw writes and values combine into one document")
    func rawWrites() {
        var writer = JSONWriter(capacity: 64)
        writer.writeRaw("{\"list\":")
        writer.write(.array([.string("a")]))
        writer.writeRaw(",")
        writer.writeString("n")
        writer.writeRaw(":")
        writer.writeNumber(2)
        writer.writeRaw("}")
        #expect(String(decoding: writer.bytes, as: UTF8.self) == #"{"list":["a"],"n":2}"#)
    }

    @Test("parse -> write -> parse round-trips", arguments: [
        #"{"a":[1,2.5,-3e-7,"x\"y",{"b":null}],"c":true,"a":false}"#,
        #"["\u0000\u001f","\ud83d\ude00","é",[],{},[[[]]]]"#,
        #"[0.1,1e+21,1e21,123456789,-0,5e-324]"#,
        #""just a string""#,
    ])
    func roundTrip(json: String) throws {
        let value = try JSONParser.parse(json)
        let written = value.jsonBytes()
        #expect(try JSONParser.parse(written) == value)
        // Writing is deterministic and idempotent.
        #expect(try JSONParser.parse(written).jsonBytes() == written)
    }

    /// A counting writer keeps no string or raw bytes, but counts exactly what a writer writes:
    /// every byte below 0x80 escaped or not, non-ASCII text, long runs between escapes, repeats
    /// of earlier output, and numbers, which it still writes.
    @Test("a counting writer counts what a writer writes")
    func countingMatchesWriting() {
        let every = String(decoding: (0..<0x80).map { UInt8($0) }, as: UTF8.self)
        let strings = [every, "", "plain", "a\"b\\c", "\u{0}\u{1F}\n", "é中😀", "x\\.y\\.z\\.com", String(repeating: "ab\\.", count: 40)]
        var writer = JSONWriter()
        var counter = JSONWriter.counting()
        for string in strings {
            let start = writer.count
            #expect(counter.count == start)
            func writeMember(to output: inout JSONWriter) {
                output.writeRaw(",\"k\":")
                output.writeString(string)
            }
            writeMember(to: &writer)
            writeMember(to: &counter)
            #expect(counter.count == writer.count, "\(string.debugDescription)")
            func repeatAndWriteNumber(to output: inout JSONWriter) {
                output.repeatOutput(start..<output.count)
                output.writeNumber(-12.5)
            }
            repeatAndWriteNumber(to: &writer)
            repeatAndWriteNumber(to: &counter)
            #expect(counter.count == writer.count)
        }
        #expect(counter.bytes.count < writer.count / 4)
        counter.removeAll()
        #expect(counter.count == 0)
    }
}
