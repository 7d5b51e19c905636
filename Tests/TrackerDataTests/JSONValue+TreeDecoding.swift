import TrackerlessCore
@testable import TrackerDataKit

/// Typed access to a parsed tree that builds a ``JSONPath`` only when it reports an error, for
/// the tree decoders kept as oracles (`TreeTrackerDataDecoder`, `TreePrivacyConfigurationDecoder`);
/// the inputs themselves are read by `JSONReader`. On a mismatch they defer to `JSONNode`, whose
/// words the reader uses too.
extension JSONValue {
    func string(at path: @autoclosure () -> JSONPath) throws(JSONDecodingError) -> String {
        if case .string(let string) = self { return string }
        return try JSONNode(self, path: path()).string()
    }

    func double(at path: @autoclosure () -> JSONPath) throws(JSONDecodingError) -> Double {
        if case .number(let number) = self { return number }
        return try JSONNode(self, path: path()).double()
    }

    func int(at path: @autoclosure () -> JSONPath) throws(JSONDecodingError) -> Int {
        if case .number(let number) = self, let integer = Int(exactly: number) { return integer }
        return try JSONNode(self, path: path()).int()
    }

    func bool(at path: @autoclosure () -> JSONPath) throws(JSONDecodingError) -> Bool {
        if case .bool(let bool) = self { return bool }
        return try JSONNode(self, path: path()).bool()
    }

    func object(at path: @autoclosure () -> JSONPath) throws(JSONDecodingError) -> JSONObject {
        if case .object(let object) = self { return object }
        _ = try JSONNode(self, path: path()).members()
        return JSONObject()  // unreachable: members() threw
    }

    func array(at path: @autoclosure () -> JSONPath) throws(JSONDecodingError) -> [JSONValue] {
        if case .array(let elements) = self { return elements }
        _ = try JSONNode(self, path: path()).array()
        return []  // unreachable: array() threw
    }

    func stringArray(at path: @autoclosure () -> JSONPath) throws(JSONDecodingError) -> [String] {
        if case .array(let elements) = self {
            var strings: [String] = []
            strings.reserveCapacity(elements.count)
            for element in elements {
                guard case .string(let string) = element else {
                    return try JSONNode(self, path: path()).stringArray()
                }
                strings.append(string)
            }
            return strings
        }
        return try JSONNode(self, path: path()).stringArray()
    }

    var isNull: Bool {
        if case .null = self { return true }
        return false
    }
}

extension JSONObject {
    /// The member named `key`, treating an explicit `null` as absent: producers of optional
    /// fields write either.
    func optional(_ key: String) -> JSONValue? {
        guard let value = self[key], !value.isNull else { return nil }
        return value
    }

    /// The member named `key`, or an error naming the object that lacks it.
    func required(_ key: String, at path: @autoclosure () -> JSONPath) throws(JSONDecodingError) -> JSONValue {
        if let value = self[key] { return value }
        return try JSONNode(.object(self), path: path()).required(key).value
    }

    /// The string member named `key`, nil when absent or `null`, or an error naming it.
    func optionalString(_ key: String, at path: @autoclosure () -> JSONPath) throws(JSONDecodingError) -> String? {
        guard let value = optional(key) else { return nil }
        return try value.string(at: path().appending(key: key))
    }

    /// The members in document order, zipped.
    var members: Zip2Sequence<[String], [JSONValue]> { zip(keys, values) }
}

extension TrackerDataError {
    /// Parses `bytes` as JSON and hands the root to `decode`, wrapping either failure with `file`.
    static func decoding<T>(
        _ bytes: [UInt8], file: String?, indexingObjects: Bool = true,
        _ decode: (JSONValue) throws(JSONDecodingError) -> T
    ) throws(TrackerDataError) -> T {
        let root: JSONValue
        do throws(JSONSyntaxError) {
            root = try JSONParser.parse(bytes, indexingObjects: indexingObjects)
        } catch {
            throw .syntax(error, file: file)
        }
        do throws(JSONDecodingError) {
            return try decode(root)
        } catch {
            throw .invalidValue(error, file: file)
        }
    }
}
