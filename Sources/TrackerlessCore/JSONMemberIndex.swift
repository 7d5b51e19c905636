/// An object read once for lookups by key: where each member's value starts, for a decoder that
/// takes the members in its own order (a small file's fields, checked in the order its errors
/// are documented) rather than the document's.
///
/// ```swift
/// let spec = try reader.indexObject(at: .root)
/// let entries = try reader.requiredInt("totalEntries", in: spec)   // error names totalEntries
/// if try reader.seek("sha256", in: spec) { sha256 = try reader.readString(at: spec.path(of: "sha256")) }
/// reader.leave(spec)
/// ```
///
/// A key finds its last member, as a lookup in `JSON.parse`'s result does; the values of the
/// others have been checked for syntax only. Each value looked up is read from the document again,
/// so it suits objects of a few members: a big map is walked with ``JSONReader/nextKey(in:)``.
public struct JSONMemberIndex {
    /// Where the object is in its document.
    public let path: JSONPath
    fileprivate var starts: [String: JSONReader.Checkpoint]
    fileprivate let end: JSONReader.Checkpoint

    /// The path of the member `key`.
    public func path(of key: String) -> JSONPath {
        path.appending(key: key)
    }

    /// Whether the object has a member `key`.
    public func contains(_ key: String) -> Bool {
        starts[key] != nil
    }
}

extension JSONReader {
    /// Reads the object that comes next for lookups (see ``JSONMemberIndex``), or throws the
    /// error of ``JSONNode/members()`` for another value at `path`; the reader is left after the
    /// object.
    public mutating func indexObject(at path: JSONPath) throws(JSONReadError) -> JSONMemberIndex {
        var starts: [String: Checkpoint] = [:]
        var members = try enterObject(at: path)
        while let key = try nextKey(in: &members) {
            starts[key.string] = checkpoint
            try skipValue()
        }
        return JSONMemberIndex(path: path, starts: starts, end: checkpoint)
    }

    /// ``indexObject(at:)`` for the object that comes next, or nil after skipping another value:
    /// a lookup in a value that is not an object finds nothing.
    public mutating func indexObjectIfPresent(at path: JSONPath) throws(JSONReadError) -> JSONMemberIndex? {
        guard try nextKind() == .object else {
            try skipValue()
            return nil
        }
        return try indexObject(at: path)
    }

    /// Moves to the value of the member `key` of `object`, to read it next; false when there is
    /// no such member.
    public mutating func seek(_ key: String, in object: JSONMemberIndex) -> Bool {
        guard let start = object.starts[key] else { return false }
        restore(start)
        return true
    }

    /// Moves to the value of the member `key` of `object`, or throws the error of
    /// ``JSONNode/required(_:)`` when there is none.
    public mutating func seekRequired(_ key: String, in object: JSONMemberIndex) throws(JSONReadError) {
        guard seek(key, in: object) else {
            throw .invalidValue(JSONDecodingError(path: object.path, reason: "missing required member \"\(key)\""))
        }
    }

    /// Moves past `object`, where the reader was when it had read it.
    public mutating func leave(_ object: JSONMemberIndex) {
        restore(object.end)
    }

    /// The string value of the required member `key`, with the errors of
    /// `node.required(key).string()`.
    public mutating func requiredString(_ key: String, in object: JSONMemberIndex) throws(JSONReadError) -> String {
        try seekRequired(key, in: object)
        return try readString(at: object.path(of: key))
    }

    /// The integer value of the required member `key`, with the errors of `node.required(key).int()`.
    public mutating func requiredInt(_ key: String, in object: JSONMemberIndex) throws(JSONReadError) -> Int {
        try seekRequired(key, in: object)
        return try readInt(at: object.path(of: key))
    }

    /// The number value of the required member `key`, with the errors of
    /// `node.required(key).double()`.
    public mutating func requiredDouble(_ key: String, in object: JSONMemberIndex) throws(JSONReadError) -> Double {
        try seekRequired(key, in: object)
        return try readDouble(at: object.path(of: key))
    }

    /// The Boolean value of the required member `key`, with the errors of
    /// `node.required(key).bool()`.
    public mutating func requiredBool(_ key: String, in object: JSONMemberIndex) throws(JSONReadError) -> Bool {
        try seekRequired(key, in: object)
        return try readBool(at: object.path(of: key))
    }
}
