import TrackerlessCore

/// Counts in JSON: non-negative integers below 2^53 (exact as a JavaScript number).
enum JSONCount {
    /// The largest count, 2^53 - 1.
    static let maximum = 9_007_199_254_740_991

    /// The count, or nil when the number is absent or not an integer of magnitude below 2^53, or
    /// is negative and `signed` is false.
    static func count(_ number: Double?, signed: Bool = false) -> Int? {
        guard let number, number >= (signed ? -Double(maximum) : 0), number <= Double(maximum),
            number.rounded(.towardZero) == number
        else { return nil }
        return Int(number)
    }

    /// The object of counts that comes next, nil after skipping another value or when a member
    /// is not a count.
    static func counts(_ reader: inout JSONReader, signed: Bool = false) throws(JSONReadError) -> [String: Int]? {
        try map(&reader) { (reader) throws(JSONReadError) -> Int? in count(try reader.readDoubleIfPresent(), signed: signed) }
    }

    /// The object that comes next with each member read by `read`, nil after skipping another
    /// value or when `read` refuses a member (the rest is still read, for the syntax).
    static func map<Value>(
        _ reader: inout JSONReader, _ read: (inout JSONReader) throws(JSONReadError) -> Value?
    ) throws(JSONReadError) -> [String: Value]? {
        guard var members = try reader.enterObjectIfPresent() else { return nil }
        var values: [String: Value]? = [:]
        while let key = try reader.nextKey(in: &members) {
            let name = key.string
            guard let value = try read(&reader) else {
                values = nil
                continue
            }
            values?[name] = value
        }
        return values
    }
}
