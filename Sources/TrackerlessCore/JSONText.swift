/// A JSON value kept as the bytes of its text and read with a ``JSONReader`` when asked: what a
/// model keeps of a value whose shape only its readers know (a privacy-configuration feature's
/// `settings`), so that the document is decoded one way and a value no one asks for is never
/// built.
///
/// ```swift
/// let settings = JSONText(.object(JSONObject([("parameters", .array([.string("utm_source")]))])))
/// settings.member("parameters")?.elements.compactMap(\.string)   // ["utm_source"]
/// ```
///
/// Lookups follow `JSON.parse`'s result: a key finds its last member, and a member whose value is
/// `null` counts as absent. Two texts are equal when they hold the same value, however written.
public struct JSONText: Sendable {
    /// The UTF-8 text of the value, as written in its document.
    public let bytes: [UInt8]

    /// Bytes already checked to hold one JSON value.
    init(validBytes: [UInt8]) {
        bytes = validBytes
    }

    /// The text of `value`, written as ``JSONValue/jsonBytes()`` writes it.
    public init(_ value: JSONValue) {
        bytes = value.jsonBytes()
    }

    /// Reads the value with `body`, which must read it whole.
    public func read<Result>(_ body: (inout JSONReader) throws(JSONReadError) -> Result) throws(JSONReadError) -> Result {
        try JSONReader.read(bytes, body)
    }

    /// The value as a tree, built on demand.
    public var value: JSONValue {
        (try? read { (reader) throws(JSONReadError) in try reader.readValue() }) ?? .null
    }

    /// The kind of the value.
    public var kind: JSONValueKind {
        (try? read { (reader) throws(JSONReadError) in
            let kind = try reader.nextKind()
            try reader.skipValue()
            return kind
        }) ?? .invalid
    }

    /// The value when it is a string.
    public var string: String? {
        (try? read { (reader) throws(JSONReadError) in try reader.readStringIfPresent() }) ?? nil
    }

    /// The value of the last member `key` when the value is an object and that member is not
    /// `null`.
    public func member(_ key: String) -> JSONText? {
        let text = try? read { (reader) throws(JSONReadError) -> JSONText? in
            guard let object = try reader.indexObjectIfPresent(at: .root) else { return nil }
            defer { reader.leave(object) }
            guard reader.seek(key, in: object), !(try reader.skipNull()) else { return nil }
            return try reader.readText()
        }
        return text ?? nil
    }

    /// The members in document order (duplicates included) when the value is an object, or none.
    public var members: [(key: String, value: JSONText)] {
        (try? read { (reader) throws(JSONReadError) in
            var result: [(key: String, value: JSONText)] = []
            guard var members = try reader.enterObjectIfPresent() else { return result }
            while let key = try reader.nextKey(in: &members) {
                let name = key.string
                result.append((name, try reader.readText()))
            }
            return result
        }) ?? []
    }

    /// The elements when the value is an array, or none.
    public var elements: [JSONText] {
        (try? read { (reader) throws(JSONReadError) in
            var result: [JSONText] = []
            guard var elements = try reader.enterArrayIfPresent() else { return result }
            while try reader.nextElement(in: &elements) {
                result.append(try reader.readText())
            }
            return result
        }) ?? []
    }
}

extension JSONText: Hashable {
    /// Texts are equal when they hold the same value (``JSONValue`` equality), however written.
    public static func == (lhs: JSONText, rhs: JSONText) -> Bool {
        lhs.bytes == rhs.bytes || lhs.value == rhs.value
    }

    /// Hashes the value.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(value)
    }
}
