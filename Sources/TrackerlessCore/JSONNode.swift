/// A JSON value together with its path in the document, for decoding a tree with precise errors.
///
/// ``JSONReader`` reports a value of the wrong type in this type's words, so a decoder of a tree
/// (a value a model keeps as JSON) and the package's readers fail alike.
///
/// ```swift
/// let root = JSONNode(try JSONParser.parse(bytes))
/// for (domain, tracker) in try root.required("trackers").members() {
///     let policy = try tracker.required("default").string()   // error names trackers["x.com"].default
/// }
/// ```
public struct JSONNode: Sendable {
    /// The value.
    public let value: JSONValue
    /// Where the value is in its document.
    public let path: JSONPath

    /// Wraps a value found at `path`.
    public init(_ value: JSONValue, path: JSONPath = .root) {
        self.value = value
        self.path = path
    }

    /// The string, or an error if the value is not a string.
    public func string() throws(JSONDecodingError) -> String {
        guard case .string(let string) = value else { throw mismatch("a string") }
        return string
    }

    /// The Boolean, or an error if the value is not `true` or `false`.
    public func bool() throws(JSONDecodingError) -> Bool {
        guard case .bool(let bool) = value else { throw mismatch("a boolean") }
        return bool
    }

    /// The number, or an error if the value is not a number.
    public func double() throws(JSONDecodingError) -> Double {
        guard case .number(let number) = value else { throw mismatch("a number") }
        return number
    }

    /// The number as an integer, or an error if it is not a number, not integral, or out of range.
    public func int() throws(JSONDecodingError) -> Int {
        guard case .number(let number) = value else { throw mismatch("an integer") }
        guard number.rounded(.towardZero) == number else {
            throw JSONDecodingError(path: path, reason: "expected an integer, found \(number)")
        }
        guard let integer = Int(exactly: number) else {
            throw JSONDecodingError(path: path, reason: "integer \(number) is out of range")
        }
        return integer
    }

    /// The elements with their paths, or an error if the value is not an array.
    public func array() throws(JSONDecodingError) -> [JSONNode] {
        guard case .array(let elements) = value else { throw mismatch("an array") }
        var nodes: [JSONNode] = []
        nodes.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            nodes.append(JSONNode(element, path: path.appending(index: index)))
        }
        return nodes
    }

    /// The object's members in document order (duplicates included), or an error if the value is
    /// not an object.
    public func members() throws(JSONDecodingError) -> [(key: String, node: JSONNode)] {
        guard case .object(let object) = value else { throw mismatch("an object") }
        var members: [(key: String, node: JSONNode)] = []
        members.reserveCapacity(object.count)
        for (key, member) in zip(object.keys, object.values) {
            members.append((key: key, node: JSONNode(member, path: path.appending(key: key))))
        }
        return members
    }

    /// The elements as strings, or an error naming the first element that is not a string.
    public func stringArray() throws(JSONDecodingError) -> [String] {
        guard case .array(let elements) = value else { throw mismatch("an array of strings") }
        var strings: [String] = []
        strings.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            guard case .string(let string) = element else {
                throw JSONDecodingError(
                    path: path.appending(index: index),
                    reason: "expected a string, found \(Self.typeName(of: element))")
            }
            strings.append(string)
        }
        return strings
    }

    /// The member named `key` (the last one if duplicated); nil when absent or when this value is
    /// not an object.
    public subscript(key: String) -> JSONNode? {
        guard case .object(let object) = value, let member = object[key] else { return nil }
        return JSONNode(member, path: path.appending(key: key))
    }

    /// The member named `key`, or an error if this value is not an object or has no such member.
    public func required(_ key: String) throws(JSONDecodingError) -> JSONNode {
        guard case .object(let object) = value else { throw mismatch("an object") }
        guard let member = object[key] else {
            throw JSONDecodingError(path: path, reason: "missing required member \"\(key)\"")
        }
        return JSONNode(member, path: path.appending(key: key))
    }

    /// Whether the value is `null`.
    public var isNull: Bool {
        if case .null = value { return true }
        return false
    }

    /// The kind of value with its article, as used in messages: "a string", "an object", "null".
    public var typeName: String { Self.typeName(of: value) }

    package static func typeName(of value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    private func mismatch(_ expected: String) -> JSONDecodingError {
        JSONDecodingError(path: path, reason: "expected \(expected), found \(typeName)")
    }
}
