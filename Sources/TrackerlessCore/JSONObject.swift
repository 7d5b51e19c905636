/// The members of a JSON object, in document order, duplicates included.
///
/// Looking a key up returns the last member with that key, as `JSON.parse` does in JavaScript.
/// Large objects keep a hash index so lookups stay constant-time.
public struct JSONObject: Sendable {
    private var storedKeys: [String]
    /// Maps each key to the position of its last occurrence; only for objects big enough to need it.
    private var index: [String: Int]?

    /// The member values, parallel to ``keys``.
    public var values: [JSONValue]

    /// Objects with fewer members are searched linearly: that is faster than hashing.
    private static let indexThreshold = 24

    /// Creates an empty object.
    public init() {
        storedKeys = []
        values = []
        index = nil
    }

    /// Creates an object from members in order.
    public init(_ members: [(String, JSONValue)]) {
        var keys: [String] = []
        var values: [JSONValue] = []
        keys.reserveCapacity(members.count)
        values.reserveCapacity(members.count)
        for (key, value) in members {
            keys.append(key)
            values.append(value)
        }
        self.init(keys: keys, values: values)
    }

    /// Creates an object from parallel key and value arrays (the parser's fast path).
    init(keys: [String], values: [JSONValue], indexed: Bool = true) {
        self.storedKeys = keys
        self.values = values
        self.index = indexed ? Self.makeIndex(keys) : nil
    }

    /// The member names in document order; may contain duplicates.
    public var keys: [String] {
        get { storedKeys }
        set {
            storedKeys = newValue
            index = Self.makeIndex(newValue)
        }
    }

    /// The value of the last member named `key`, or nil when there is none.
    public subscript(key: String) -> JSONValue? {
        if let index {
            guard let position = index[key], position < values.count else { return nil }
            return values[position]
        }
        var position = min(storedKeys.count, values.count)
        while position > 0 {
            position -= 1
            if storedKeys[position] == key { return values[position] }
        }
        return nil
    }

    /// The number of members, duplicates included.
    public var count: Int { storedKeys.count }

    /// Adds a member at the end; a duplicate key shadows earlier members for lookups.
    public mutating func append(_ key: String, _ value: JSONValue) {
        storedKeys.append(key)
        values.append(value)
        if index != nil {
            index?[key] = storedKeys.count - 1
        } else if storedKeys.count >= Self.indexThreshold {
            index = Self.makeIndex(storedKeys)
        }
    }

    private static func makeIndex(_ keys: [String]) -> [String: Int]? {
        guard keys.count >= indexThreshold else { return nil }
        var index: [String: Int] = [:]
        index.reserveCapacity(keys.count)
        for (position, key) in keys.enumerated() {
            index[key] = position
        }
        return index
    }
}

extension JSONObject: Hashable {
    /// Objects are equal when they have the same members in the same order.
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        lhs.storedKeys == rhs.storedKeys && lhs.values == rhs.values
    }

    /// Hashes the members in order.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(storedKeys)
        hasher.combine(values)
    }
}
