/// The members of an object that a decoder wants as strings, read in one pass: for each key it
/// names, the string, `null` or the kind of another value, so that the decoder reports a wrong
/// value when, and in the order, it asks for it (a JSON-lines request, for example).
///
/// ```swift
/// let line = try reader.readStringMembers(["url", "type"], at: .root)
/// let url = try line.requiredString("url")   // url: expected a string, found a number
/// ```
///
/// A key finds its last member, as a lookup in `JSON.parse`'s result does; members with other
/// keys are checked for syntax and skipped.
public struct JSONStringMembers {
    /// What a member's value is.
    public enum Value: Equatable, Sendable {
        /// A string, escapes resolved.
        case string(String)
        /// `null`.
        case null
        /// An array: its strings, and the first element that is not one (for the error that
        /// names it).
        case array([String], firstNonString: NonString?)
        /// Another kind of value, kept by kind for the error that names it.
        case other(JSONValueKind)
    }

    /// An array element that is not a string: its index and kind.
    public struct NonString: Equatable, Sendable {
        public var index: Int
        public var kind: JSONValueKind
    }

    /// Where the object is in its document.
    public let path: JSONPath
    private let keys: [StaticString]
    private var values: [Value?]

    fileprivate init(path: JSONPath, keys: [StaticString]) {
        self.path = path
        self.keys = keys
        values = Array(repeating: nil, count: keys.count)
    }

    /// The value of the member `key`, nil when the object has none (or `key` was not asked for).
    public subscript(key: StaticString) -> Value? {
        guard let index = index(of: key) else { return nil }
        return values[index]
    }

    /// The path of the member `key`.
    public func path(of key: StaticString) -> JSONPath {
        path.appending(key: key.description)
    }

    /// The string of the member `key`; nil when there is none; the error of
    /// ``JSONNode/string()`` for another value, `null` included.
    public func string(_ key: StaticString) throws(JSONDecodingError) -> String? {
        switch self[key] {
        case nil: return nil
        case .string(let string)?: return string
        case .null?: throw mismatch(key, found: "null")
        case .array?: throw mismatch(key, found: "an array")
        case .other(let kind)?: throw mismatch(key, found: kind.typeName)
        }
    }

    /// The strings of the array member `key`, nil when there is none or it is `null`; the errors
    /// of ``JSONNode/stringArray()`` for another value or an element that is not a string.
    public func optionalStringArray(_ key: StaticString) throws(JSONDecodingError) -> [String]? {
        switch self[key] {
        case nil, .null?: return nil
        case .array(let strings, nil)?: return strings
        case .array(_, let nonString?)?:
            throw JSONDecodingError(
                path: path(of: key).appending(index: nonString.index), reason: "expected a string, found \(nonString.kind.typeName)")
        case .string?: throw JSONDecodingError(path: path(of: key), reason: "expected an array of strings, found a string")
        case .other(let kind)?: throw JSONDecodingError(path: path(of: key), reason: "expected an array of strings, found \(kind.typeName)")
        }
    }

    /// The string of the member `key`, or the error of `node.required(key).string()`.
    public func requiredString(_ key: StaticString) throws(JSONDecodingError) -> String {
        guard let string = try string(key) else {
            throw JSONDecodingError(path: path, reason: "missing required member \"\(key)\"")
        }
        return string
    }

    /// The string of the member `key`, nil when there is none or it is `null`; the error of
    /// ``JSONNode/string()`` for another value.
    public func optionalString(_ key: StaticString) throws(JSONDecodingError) -> String? {
        if self[key] == .null { return nil }
        return try string(key)
    }

    private func mismatch(_ key: StaticString, found typeName: String) -> JSONDecodingError {
        JSONDecodingError(path: path(of: key), reason: "expected a string, found \(typeName)")
    }

    private func index(of key: StaticString) -> Int? {
        let count = key.utf8CodeUnitCount
        return keys.firstIndex { candidate in
            candidate.utf8CodeUnitCount == count
                && candidate.withUTF8Buffer { a in key.withUTF8Buffer { b in a.elementsEqual(b) } }
        }
    }

    fileprivate mutating func set(_ value: Value, forKeyAt index: Int) {
        values[index] = value
    }

    fileprivate func index(of key: JSONKey) -> Int? {
        keys.firstIndex { $0 ~= key }
    }
}

extension JSONReader {
    /// Reads the object that comes next, keeping the members named in `keys` (see
    /// ``JSONStringMembers``), or throws the error of ``JSONNode/members()`` for another value
    /// at `path`.
    public mutating func readStringMembers(
        _ keys: [StaticString], at path: JSONPath
    ) throws(JSONReadError) -> JSONStringMembers {
        var result = JSONStringMembers(path: path, keys: keys)
        var members = try enterObject(at: path)
        while let key = try nextKey(in: &members) {
            guard let index = result.index(of: key) else {
                try skipValue()
                continue
            }
            switch try nextKind() {
            case .string: result.set(.string(try readString(at: path)), forKeyAt: index)
            case .null:
                _ = try skipNull()
                result.set(.null, forKeyAt: index)
            case .array:
                var strings: [String] = []
                var firstNonString: JSONStringMembers.NonString?
                var elements = try enterArray(at: path)
                var position = 0
                while try nextElement(in: &elements) {
                    let kind = try nextKind()
                    if kind == .string {
                        strings.append(try readString(at: path))
                    } else {
                        if firstNonString == nil { firstNonString = JSONStringMembers.NonString(index: position, kind: kind) }
                        try skipValue()
                    }
                    position += 1
                }
                result.set(.array(strings, firstNonString: firstNonString), forKeyAt: index)
            case let kind:
                try skipValue()
                result.set(.other(kind), forKeyAt: index)
            }
        }
        return result
    }
}

extension JSONValueKind {
    /// The kind with its article, as errors name it (``JSONNode/typeName``): "a string", "null".
    public var typeName: String {
        switch self {
        case .object: "an object"
        case .array: "an array"
        case .string: "a string"
        case .number: "a number"
        case .bool: "a boolean"
        case .null: "null"
        case .invalid: "an invalid value"
        }
    }
}
