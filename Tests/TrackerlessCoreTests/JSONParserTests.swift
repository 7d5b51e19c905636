import Testing
@testable import TrackerlessCore

/// One malformed document and where its error must be reported.
struct SyntaxErrorCase: CustomTestStringConvertible, Sendable {
    var json: String
    var line: Int
    var column: Int
    var offset: Int
    var reason: String
    var testDescription: String { "\(json.debugDescription) -> \(reason)" }
}

@Suite("JSONParser")
struct JSONParserTests {
    @Test("parses every kind of value")
    func parsesValues() throws {
        let value = try JSONParser.parse(#"{"a":[1,-2.5,"x",true,false,null,{}],"b":{"c":[]}}"#)
        let expected = JSONValue.object(JSONObject([
            ("a", .array([.number(1), .number(-2.5), .string("x"), .bool(true), .bool(false), .null, .object(JSONObject())])),
            ("b", .object(JSONObject([("c", .array([]))]))),
        ]))
        #expect(value == expected)
    }

    @Test("scalars may be the whole document, surrounded by whitespace")
    func scalarDocuments() throws {
        #expect(try JSONParser.parse(" \t\r\n42 \n") == .number(42))
        #expect(try JSONParser.parse("\"s\"") == .string("s"))
        #expect(try JSONParser.parse("null") == .null)
    }

    @Test("skips a UTF-8 byte order mark")
    func byteOrderMark() throws {
        #expect(try JSONParser.parse([0xEF, 0xBB, 0xBF] + Array("[1]".utf8)) == .array([.number(1)]))
    }

    @Test("objects keep document order and duplicates; the last duplicate wins lookups")
    func duplicateKeys() throws {
        guard case .object(let object) = try JSONParser.parse(#"{"b":1,"a":2,"b":3}"#) else {
            Issue.record("not an object")
            return
        }
        #expect(object.keys == ["b", "a", "b"])
        #expect(object.values == [.number(1), .number(2), .number(3)])
        #expect(object["b"] == .number(3))
        #expect(object["a"] == .number(2))
        #expect(object["c"] == nil)
        #expect(object.count == 3)
    }

    @Test("large objects look keys up through an index, last duplicate still winning")
    func largeObjectLookup() throws {
        var members = (0..<100).map { ("k\($0)", JSONValue.number(Double($0))) }
        members.append(("k7", .string("last")))
        var object = JSONObject(members)
        #expect(object["k7"] == .string("last"))
        #expect(object["k99"] == .number(99))
        #expect(object["nope"] == nil)
        object.append("k99", .null)
        object.append("new", .bool(true))
        #expect(object["k99"] == .null)
        #expect(object["new"] == .bool(true))
        object.keys[0] = "renamed"
        #expect(object["renamed"] == .number(0))
        #expect(object["k0"] == nil)
    }

    @Test("string escapes, including surrogate pairs", arguments: [
        (#""a\"b\\c\/d""#, "a\"b\\c/d"),
        (#""\b\f\n\r\t""#, "\u{08}\u{0C}\n\r\t"),
        (#""\u0041\u00e9\u4E2D""#, "Aé中"),
        (#""\ud83d\ude00""#, "😀"),
        (#""\u0000""#, "\u{0}"),
        ("\"é中😀\"", "é中😀"),
        (#""plain ascii""#, "plain ascii"),
        (#""mixed é then \n""#, "mixed é then \n"),
    ])
    func stringEscapes(json: String, expected: String) throws {
        #expect(try JSONParser.parse(json) == .string(expected))
    }

    @Test("escapes, non-ASCII and control characters are found at every position of a string")
    func specialBytesAtEveryPosition() throws {
        for length in 1..<32 {
            for position in 0..<length {
                let before = String(repeating: "a", count: position)
                let after = String(repeating: "b", count: length - position - 1)
                #expect(try JSONParser.parse("\"\(before)\\n\(after)\"") == .string(before + "\n" + after))
                #expect(try JSONParser.parse("\"\(before)\\\"\(after)\"") == .string(before + "\"" + after))
                #expect(try JSONParser.parse("\"\(before)é\(after)\"") == .string(before + "é" + after))
                #expect(throws: JSONSyntaxError(
                    offset: position + 1, line: 1, column: position + 2,
                    reason: "unescaped control character U+0009 in a string"
                )) {
                    try JSONParser.parse("\"\(before)\t\(after)\"")
                }
                #expect(throws: JSONSyntaxError(offset: 0, line: 1, column: 1, reason: "unterminated string")) {
                    try JSONParser.parse("\"\(before)\(after)")
                }
            }
        }
    }

    @Test("numbers", arguments: [
        ("0", 0.0), ("-0", -0.0), ("1", 1), ("-17", -17), ("3.25", 3.25), ("1e3", 1000),
        ("1E+3", 1000), ("25e-1", 2.5), ("0.1", 0.1), ("123456789012345678", 123456789012345680),
        ("9007199254740993", 9007199254740992), ("1.7976931348623157e308", 1.7976931348623157e308),
        ("5e-324", .leastNonzeroMagnitude), ("0.30000000000000004", 0.30000000000000004), ("1e-400", 0),
        ("12345678901234567890123", 1.2345678901234568e22), ("0.000001234", 0.000001234),
    ])
    func numbers(json: String, expected: Double) throws {
        let value = try JSONParser.parse(json)
        #expect(value == .number(expected))
        if case .number(let number) = value {
            #expect(number.sign == expected.sign)
        }
    }

    @Test("numbers agree with Double(String) for many decimal forms")
    func numbersAgreeWithStandardLibrary() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let mantissa = UInt64.random(in: 0...UInt64(1) << 60, using: &generator)
            let scale = Int.random(in: 0...20, using: &generator)
            var digits = String(mantissa)
            if scale > 0, scale < digits.count {
                digits.insert(".", at: digits.index(digits.endIndex, offsetBy: -scale))
            }
            let exponent = Int.random(in: -30...30, using: &generator)
            for text in [digits, "-" + digits, digits + "e\(exponent)"] {
                #expect(try JSONParser.parse(text) == .number(Double(text) ?? .nan), "\(text)")
            }
        }
    }

    static let syntaxErrors: [SyntaxErrorCase] = [
        .init(json: "", line: 1, column: 1, offset: 0, reason: "unexpected end of input, expected a JSON value"),
        .init(json: "   ", line: 1, column: 4, offset: 3, reason: "unexpected end of input, expected a JSON value"),
        .init(json: "{\"a\":1 \"b\":2}", line: 1, column: 8, offset: 7,
              reason: "expected ',' or '}' after an object member, found '\"'"),
        .init(json: "[1 2]", line: 1, column: 4, offset: 3, reason: "expected ',' or ']' after an array element, found '2'"),
        .init(json: "[1,]", line: 1, column: 4, offset: 3, reason: "expected a JSON value, found ']'"),
        .init(json: "{\"a\":1,}", line: 1, column: 8, offset: 7, reason: "expected '\"' to begin an object key, found '}'"),
        .init(json: "{a:1}", line: 1, column: 2, offset: 1, reason: "expected '\"' to begin an object key, found 'a'"),
        .init(json: "{\"a\" 1}", line: 1, column: 6, offset: 5, reason: "expected ':' after an object key, found '1'"),
        .init(json: "[1", line: 1, column: 3, offset: 2,
              reason: "unexpected end of input, expected ',' or ']' after an array element"),
        .init(json: "{\"a\":1", line: 1, column: 7, offset: 6,
              reason: "unexpected end of input, expected ',' or '}' after an object member"),
        .init(json: "[1]x", line: 1, column: 4, offset: 3, reason: "unexpected 'x' after the JSON value"),
        .init(json: "1 2", line: 1, column: 3, offset: 2, reason: "unexpected '2' after the JSON value"),
        .init(json: "[tru]", line: 1, column: 2, offset: 1, reason: "expected a JSON value, found 't' (not 'true')"),
        .init(json: "nul", line: 1, column: 1, offset: 0, reason: "expected a JSON value, found 'n' (not 'null')"),
        .init(json: "[01]", line: 1, column: 2, offset: 1, reason: "leading zeros are not allowed in numbers"),
        .init(json: "-", line: 1, column: 2, offset: 1, reason: "expected a digit after '-'"),
        .init(json: "[-x]", line: 1, column: 3, offset: 2, reason: "expected a digit after '-'"),
        .init(json: "1.", line: 1, column: 3, offset: 2, reason: "expected a digit after the decimal point"),
        .init(json: "1.e5", line: 1, column: 3, offset: 2, reason: "expected a digit after the decimal point"),
        .init(json: "1e", line: 1, column: 3, offset: 2, reason: "expected a digit in the exponent"),
        .init(json: "1e+", line: 1, column: 4, offset: 3, reason: "expected a digit in the exponent"),
        .init(json: "+1", line: 1, column: 1, offset: 0, reason: "expected a JSON value, found '+'"),
        .init(json: ".5", line: 1, column: 1, offset: 0, reason: "expected a JSON value, found '.'"),
        .init(json: "1e400", line: 1, column: 1, offset: 0, reason: "number 1e400 is out of the range of a double"),
        .init(json: "\"abc", line: 1, column: 1, offset: 0, reason: "unterminated string"),
        .init(json: "\"a\nb\"", line: 1, column: 3, offset: 2, reason: "unescaped control character U+000A in a string"),
        .init(json: "\"a\u{1}\"", line: 1, column: 3, offset: 2, reason: "unescaped control character U+0001 in a string"),
        .init(json: #""\x""#, line: 1, column: 2, offset: 1, reason: "invalid escape sequence '\\x' in a string"),
        .init(json: #""\u12""#, line: 1, column: 2, offset: 1,
              reason: "invalid \\u escape in a string: expected four hexadecimal digits"),
        .init(json: #""\uZZZZ""#, line: 1, column: 2, offset: 1,
              reason: "invalid \\u escape in a string: expected four hexadecimal digits"),
        .init(json: #""\ud800""#, line: 1, column: 2, offset: 1, reason: "unpaired surrogate \\uD800 in a string"),
        .init(json: #""\ud800\u0041""#, line: 1, column: 2, offset: 1, reason: "unpaired surrogate \\uD800 in a string"),
        .init(json: #""\udc00""#, line: 1, column: 2, offset: 1, reason: "unpaired surrogate \\uDC00 in a string"),
        .init(json: "'a'", line: 1, column: 1, offset: 0, reason: "expected a JSON value, found '''"),
        .init(json: "{\n  \"a\": 1,\n  \"b\" 2\n}", line: 3, column: 7, offset: 18,
              reason: "expected ':' after an object key, found '2'"),
        .init(json: "[\"é\", x]", line: 1, column: 7, offset: 7, reason: "expected a JSON value, found 'x'"),
    ]

    @Test("syntax errors name the problem and its position", arguments: syntaxErrors)
    func syntaxError(_ testCase: SyntaxErrorCase) {
        #expect(throws: JSONSyntaxError(
            offset: testCase.offset, line: testCase.line, column: testCase.column, reason: testCase.reason
        )) {
            try JSONParser.parse(testCase.json)
        }
    }

    @Test("invalid UTF-8 is an error, not a crash", arguments: [
        ([0x22, 0xFF, 0x22], "invalid UTF-8 byte 0xFF in a string"),
        ([0x22, 0xC3, 0x22], "invalid UTF-8 sequence in a string"),
        ([0x22, 0xC0, 0xAF, 0x22], "invalid UTF-8 byte 0xC0 in a string"),
        ([0x22, 0xE0, 0x80, 0xAF, 0x22], "invalid UTF-8 sequence in a string"),
        ([0x22, 0xED, 0xA0, 0x80, 0x22], "invalid UTF-8 sequence in a string"),
        ([0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], "invalid UTF-8 sequence in a string"),
        ([0x22, 0xF0, 0x9F, 0x98], "truncated UTF-8 sequence in a string"),
        ([0x22, 0x80, 0x22], "invalid UTF-8 byte 0x80 in a string"),
    ] as [([UInt8], String)])
    func invalidUTF8(bytes: [UInt8], reason: String) {
        #expect(throws: JSONSyntaxError(offset: 1, line: 1, column: 2, reason: reason)) {
            try JSONParser.parse(bytes)
        }
    }

    @Test("error descriptions read as line, column, byte and reason")
    func errorDescription() {
        let error = JSONSyntaxError(offset: 52, line: 3, column: 14, reason: "expected ',' or '}' after an object member")
        #expect(error.description == "line 3, column 14 (byte 52): expected ',' or '}' after an object member")
    }

    @Test("nesting up to the limit parses; one level more is refused")
    func depthLimit() throws {
        let atLimit = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        #expect(throws: Never.self) { try JSONParser.parse(atLimit) }
        let tooDeep = String(repeating: "[", count: 513) + String(repeating: "]", count: 513)
        #expect(throws: JSONSyntaxError(
            offset: 512, line: 1, column: 513, reason: "nesting is deeper than the limit of 512 levels"
        )) {
            try JSONParser.parse(tooDeep)
        }
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse("{\"a\":{\"b\":1}}", maxDepth: 1) }
        #expect(throws: Never.self) { try JSONParser.parse("{\"a\":[]}", maxDepth: 2) }
    }

    @Test("very deep input with a huge limit uses no recursion")
    func hugeDepthDoesNotOverflowTheStack() throws {
        let depth = 10_000
        let deep = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        let value = try JSONParser.parse(deep, maxDepth: depth)
        var levels = 0
        var current = value
        while case .array(let elements) = current {
            levels += 1
            guard let first = elements.first else { break }
            current = first
        }
        #expect(levels == depth)
    }
}
