import Testing
import TrackerlessCore

@Suite("JSONPath and JSONNode")
struct JSONNodeTests {
    @Test("paths print like JavaScript member access", arguments: [
        (JSONPath.root, "(root)"),
        (JSONPath.root.appending(key: "trackers"), "trackers"),
        (JSONPath.root.appending(key: "trackers").appending(key: "x.com").appending(key: "rules")
            .appending(index: 3).appending(key: "rule"), #"trackers["x.com"].rules[3].rule"#),
        (JSONPath.root.appending(index: 0).appending(key: "trigger"), "[0].trigger"),
        (JSONPath.root.appending(key: "x.com").appending(key: "a_b$1"), #"["x.com"].a_b$1"#),
        (JSONPath.root.appending(key: "1abc"), #"["1abc"]"#),
        (JSONPath.root.appending(key: ""), #"[""]"#),
        (JSONPath.root.appending(key: "q\"uote"), #"["q\"uote"]"#),
        (JSONPath.root.appending(key: "url-filter"), #"["url-filter"]"#),
    ])
    func pathDescription(path: JSONPath, expected: String) {
        #expect(path.description == expected)
    }

    private static let document = """
        {"trackers":{"x.com":{"default":3,"rules":[{"rule":"a"},{"rule":7}],"owner":{"name":"X"}}},
         "count":42,"ratio":0.5,"flag":true,"nothing":null,"big":1e300,"names":["a","b",1]}
        """

    private func root() throws -> JSONNode {
        JSONNode(try JSONParser.parse(Self.document))
    }

    @Test("reading values with their paths")
    func readsValues() throws {
        let root = try root()
        let tracker = try root.required("trackers").required("x.com")
        #expect(tracker.path.description == #"trackers["x.com"]"#)
        #expect(try tracker.required("owner").required("name").string() == "X")
        #expect(try root.required("count").int() == 42)
        #expect(try root.required("ratio").double() == 0.5)
        #expect(try root.required("flag").bool() == true)
        #expect(root["nothing"]?.isNull == true)
        #expect(root["count"]?.isNull == false)
        #expect(root["absent"] == nil)
        #expect(root["count"]?["x"] == nil)
        let rules = try tracker.required("rules").array()
        #expect(rules.map(\.path.description) == [#"trackers["x.com"].rules[0]"#, #"trackers["x.com"].rules[1]"#])
        let members = try root.members()
        #expect(members.map(\.key) == ["trackers", "count", "ratio", "flag", "nothing", "big", "names"])
        #expect(members[1].node.path.description == "count")
    }

    @Test("type mismatches name the path, the expected and the found type")
    func typeMismatches() throws {
        let root = try root()
        let tracker = try root.required("trackers").required("x.com")
        #expect(throws: JSONDecodingError(
            path: JSONPath.root.appending(key: "trackers").appending(key: "x.com").appending(key: "default"),
            reason: "expected a string, found a number"
        )) {
            try tracker.required("default").string()
        }
        let error = #expect(throws: JSONDecodingError.self) {
            try tracker.required("rules").array()[1].required("rule").string()
        }
        #expect(error?.description == #"trackers["x.com"].rules[1].rule: expected a string, found a number"#)

        #expect(throws: JSONDecodingError(path: .root.appending(key: "count"), reason: "expected a boolean, found a number")) {
            try root.required("count").bool()
        }
        #expect(throws: JSONDecodingError(path: .root.appending(key: "flag"), reason: "expected a number, found a boolean")) {
            try root.required("flag").double()
        }
        #expect(throws: JSONDecodingError(path: .root.appending(key: "nothing"), reason: "expected an array, found null")) {
            try root.required("nothing").array()
        }
        #expect(throws: JSONDecodingError(path: .root.appending(key: "names"), reason: "expected an object, found an array")) {
            try root.required("names").members()
        }
        #expect(throws: JSONDecodingError(path: .root.appending(key: "flag"), reason: "expected an object, found a boolean")) {
            try root.required("flag").required("x")
        }
    }

    @Test("integers must be integral and in range")
    func integers() throws {
        let root = try root()
        #expect(throws: JSONDecodingError(path: .root.appending(key: "ratio"), reason: "expected an integer, found 0.5")) {
            try root.required("ratio").int()
        }
        #expect(throws: JSONDecodingError(path: .root.appending(key: "big"), reason: "integer 1e+300 is out of range")) {
            try root.required("big").int()
        }
        #expect(throws: JSONDecodingError(path: .root.appending(key: "flag"), reason: "expected an integer, found a boolean")) {
            try root.required("flag").int()
        }
    }

    @Test("missing members and bad array elements are reported where they are")
    func missingAndElements() throws {
        let root = try root()
        #expect(throws: JSONDecodingError(path: .root.appending(key: "trackers"), reason: #"missing required member "y.com""#)) {
            try root.required("trackers").required("y.com")
        }
        #expect(throws: JSONDecodingError(
            path: .root.appending(key: "names").appending(index: 2), reason: "expected a string, found a number"
        )) {
            try root.required("names").stringArray()
        }
        #expect(try JSONNode(.array([.string("a"), .string("b")])).stringArray() == ["a", "b"])
        #expect(throws: JSONDecodingError(path: .root, reason: "expected an array of strings, found a string")) {
            try JSONNode(.string("a")).stringArray()
        }
    }

    @Test("type names read naturally in messages")
    func typeNames() {
        let names = [JSONValue.null, .bool(true), .number(1), .string(""), .array([]), .object(JSONObject())]
            .map { JSONNode($0).typeName }
        #expect(names == ["null", "a boolean", "a number", "a string", "an array", "an object"])
    }
}
