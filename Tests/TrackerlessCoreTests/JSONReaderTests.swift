import Foundation
import Testing
import TrackerlessCore
import TrackerlessTestSupport

/// JSONReader's skipping, lookups and string members held to the tree (JSONParser and JSONNode)
/// as the oracle: the same values, and the same errors at the same offsets and paths, on a
/// document and on every truncation, deletion and replacement of one of its bytes.
@Suite("JSONReader")
struct JSONReaderTests {
    private static let document = #"""
        {"data": "aGk=", "n": 12, "rate": 0.5, "on": true, "nested": {"x": [1, {"y": "\u00e9"}], "x": null},
         "list": ["a", "B"], "n": 13, "url": "https://a.example/", "type": "image", "frame": null}
        """#

    private static let replacements = Array(#"{}[]",:0 -.e"n\a"#.utf8)

    /// Runs `check` on the document and on each damaged copy.
    private static func eachVariant(_ check: ([UInt8], String) -> Void) {
        let bytes = Array(document.utf8)
        check(bytes, "the document")
        DocumentMutations.eachTruncation(of: bytes, check)
        DocumentMutations.eachDeletionAndReplacement(of: bytes, replacements: replacements, check)
    }

    /// A read's value or its error, as text to compare.
    private static func outcome<Value>(_ read: () throws -> Value) -> String {
        do {
            return "value \(try read())"
        } catch let error as JSONReadError {
            return "error \(error)"
        } catch {
            return "error \(error)"
        }
    }

    @Test("skipping a value reports the parser's first syntax error, at the same byte")
    func skipAgreesWithParser() {
        Self.eachVariant { bytes, change in
            let skipped = Self.outcome { try JSONReader.read(bytes) { (reader) throws(JSONReadError) in try reader.skipValue() } }
            let parsed = Self.outcome { _ = try JSONParser.parse(bytes) }
            #expect(skipped == parsed, "\(change)")
        }
        // The depth limit, counted from where the skipped value starts.
        let deep = Array(("{\"a\":" + String(repeating: "[", count: 4) + String(repeating: "]", count: 4) + "}").utf8)
        let limited = Self.outcome {
            try JSONReader.read(deep, maxDepth: 4) { (reader) throws(JSONReadError) in
                var members = try reader.enterObject(at: .root)
                while try reader.nextKey(in: &members) != nil { try reader.skipValue() }
            }
        }
        #expect(limited == Self.outcome { _ = try JSONParser.parse(deep, maxDepth: 4) })
        #expect(limited.contains("nesting is deeper than the limit of 4 levels"))
    }

    @Test("counting an object's members ahead counts those that are objects, leaves the reader where it was, and is nil on a syntax error")
    func countingObjectMembers() {
        // The members counted, then read: the same outcome as reading without counting.
        func countThenRead(_ bytes: [UInt8]) -> String {
            Self.outcome {
                try JSONReader.read(bytes) { (reader) throws(JSONReadError) -> String in
                    var members = try reader.enterObject(at: .root)
                    let counted = reader.countObjectMembers(from: members)
                    // Counted again after the first member: the rest only.
                    var rest: Int?
                    var keys: [String] = []
                    while let key = try reader.nextKey(in: &members) {
                        keys.append(key.string)
                        try reader.skipValue()
                        if keys.count == 1 { rest = reader.countObjectMembers(from: members) }
                    }
                    return "\(keys) \(counted.map(String.init) ?? "nil") \(rest.map(String.init) ?? "-")"
                }
            }
        }
        func read(_ bytes: [UInt8]) -> String {
            Self.outcome {
                try JSONReader.read(bytes) { (reader) throws(JSONReadError) -> String in
                    var members = try reader.enterObject(at: .root)
                    var keys: [String] = []
                    while let key = try reader.nextKey(in: &members) {
                        keys.append(key.string)
                        try reader.skipValue()
                    }
                    return "\(keys)"
                }
            }
        }
        #expect(countThenRead(Array(Self.document.utf8)) == #"value ["data", "n", "rate", "on", "nested", "list", "n", "url", "type", "frame"] 1 1"#)
        #expect(countThenRead(Array(#"{"a": {}, "b": 1, "c": {"d": {}}, "a": {"x": [{}]}}"#.utf8)) == #"value ["a", "b", "c", "a"] 3 2"#)
        #expect(countThenRead(Array("{}".utf8)) == "value [] 0 -")
        // A damaged copy: the count is nil where the rest has a syntax error, and the keys and
        // the error are those of a read without counting.
        Self.eachVariant { bytes, change in
            let counted = countThenRead(bytes)
            let plain = read(bytes)
            if plain.hasPrefix("value ") {
                #expect(counted.hasPrefix(plain + " "), "\(change): \(counted) against \(plain)")
                #expect(!counted.contains(" nil"), "\(change)")
            } else {
                #expect(counted == plain, "\(change)")
            }
        }
    }

    /// The fields a small-file decoder looks up, through the tree.
    private static func fieldsFromTree(_ bytes: [UInt8]) throws -> String {
        let root = JSONNode(try JSONParser.parse(bytes))
        let data = try root.required("data").string()
        let count = try root.required("n").int()
        let rate = try root.required("rate").double()
        let isOn = try root.required("on").bool()
        let list = try root.required("list").stringArray()
        let x = root["nested"]?["x"].map(\.isNull)
        return "\(data) \(count) \(rate) \(isOn) \(list) \(String(describing: x))"
    }

    /// The same fields through a member index.
    private static func fieldsFromIndex(_ bytes: [UInt8]) throws -> String {
        try JSONReader.read(bytes) { (reader) throws(JSONReadError) -> String in
            let root = try reader.indexObject(at: .root)
            let data = try reader.requiredString("data", in: root)
            let count = try reader.requiredInt("n", in: root)
            let rate = try reader.requiredDouble("rate", in: root)
            let isOn = try reader.requiredBool("on", in: root)
            try reader.seekRequired("list", in: root)
            let list = try reader.readStringArray(at: root.path(of: "list"))
            var x: Bool?
            if reader.seek("nested", in: root), let nested = try reader.indexObjectIfPresent(at: root.path(of: "nested")),
                reader.seek("x", in: nested)
            {
                x = try reader.skipNull()
            }
            reader.leave(root)
            return "\(data) \(count) \(rate) \(isOn) \(list) \(String(describing: x))"
        }
    }

    @Test("a member index finds what a tree lookup finds: the last of duplicate keys, in the caller's order")
    func memberIndexAgreesWithTree() throws {
        #expect(try Self.fieldsFromIndex(Array(Self.document.utf8)) == #"aGk= 13 0.5 true ["a", "B"] Optional(true)"#)
        Self.eachVariant { bytes, change in
            #expect(Self.outcome { try Self.fieldsFromIndex(bytes) } == Self.outcome { try Self.fieldsFromTree(bytes) }, "\(change)")
        }
        let missing = Self.outcome {
            try JSONReader.read(Array(#"{"a": {"b": 1}}"#.utf8)) { (reader) throws(JSONReadError) in
                let root = try reader.indexObject(at: .root)
                try reader.seekRequired("a", in: root)
                let inner = try reader.indexObject(at: root.path(of: "a"))
                _ = try reader.requiredString("c", in: inner)
            }
        }
        #expect(missing == #"error a: missing required member "c""#)
    }

    @Test("string members read as a tree's string lookups: required, optional, null and wrong types")
    func stringMembersAgreeWithTree() throws {
        func fromMembers(_ bytes: [UInt8]) throws -> String {
            let members = try JSONReader.read(bytes) { (reader) throws(JSONReadError) in
                try reader.readStringMembers(["url", "type", "frame", "data", "on"], at: .root)
            }
            do throws(JSONDecodingError) {
                return "\(try members.requiredString("url")) \(try members.requiredString("type")) "
                    + "\(String(describing: try members.optionalString("frame"))) \(String(describing: try members.string("data"))) "
                    + "\(String(describing: try members.optionalString("on")))"
            } catch {
                throw JSONReadError.invalidValue(error)
            }
        }
        func fromTree(_ bytes: [UInt8]) throws -> String {
            let root = JSONNode(try JSONParser.parse(bytes))
            func optional(_ key: String) throws -> String? {
                guard let node = root[key], !node.isNull else { return nil }
                return try node.string()
            }
            do {
                return "\(try root.required("url").string()) \(try root.required("type").string()) "
                    + "\(String(describing: try optional("frame"))) \(String(describing: try root["data"]?.string())) "
                    + "\(String(describing: try optional("on")))"
            } catch let error as JSONDecodingError {
                throw JSONReadError.invalidValue(error)
            }
        }
        Self.eachVariant { bytes, change in
            #expect(Self.outcome { try fromMembers(bytes) } == Self.outcome { try fromTree(bytes) }, "\(change)")
        }
        #expect(Self.outcome { try fromMembers(Array(Self.document.utf8)) } == "error on: expected a string, found a boolean")
    }

    @Test("no module but TrackerlessCore parses JSON another way: every input is read with JSONReader")
    func oneDecodingAPI() throws {
        let sources = SharedData.packageRoot.appendingPathComponent("Sources")
        let fileManager = FileManager.default
        var found: [String] = []
        for module in try fileManager.contentsOfDirectory(atPath: sources.path).sorted() where module != "TrackerlessCore" {
            let directory = sources.appendingPathComponent(module)
            guard let walker = fileManager.enumerator(atPath: directory.path) else { continue }
            for case let relative as String in walker where relative.hasSuffix(".swift") {
                let text = try String(contentsOf: directory.appendingPathComponent(relative), encoding: .utf8)
                for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
                where ["JSONParser.", "JSONSerialization", "JSONDecoder"].contains(where: { line.contains($0) }) {
                    found.append("\(module)/\(relative):\(index + 1): \(line.trimmingCharacters(in: .whitespaces))")
                }
            }
        }
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }
}
