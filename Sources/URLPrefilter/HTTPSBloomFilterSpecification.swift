import TrackerlessCore

/// The JSON file beside DuckDuckGo's `.bin` Smarter Encryption filter
/// (`https_bloomfilter_spec.json`): how many hosts, how many bits, the error rate and the
/// SHA-256 of the `.bin` file.
///
/// ```json
/// {"totalEntries": 6, "bitCount": 173, "errorRate": 0.000001, "sha256": "27a5d479…"}
/// ```
public struct HTTPSBloomFilterSpecification: Sendable, Hashable {
    /// The number of hosts the filter was built for.
    public var totalEntries: Int
    /// The number of bits in the filter.
    public var bitCount: UInt32
    /// The false-positive rate the filter was sized for.
    public var errorRate: Double
    /// The lowercase hexadecimal SHA-256 of the `.bin` file, when known.
    public var sha256: String?

    /// Creates a specification from its fields.
    public init(totalEntries: Int, bitCount: UInt32, errorRate: Double, sha256: String?) {
        self.totalEntries = totalEntries
        self.bitCount = bitCount
        self.errorRate = errorRate
        self.sha256 = sha256
    }

    /// Reads the specification JSON; `file` names it in errors.
    ///
    /// - Throws: ``PrefilterError/invalidFile(path:reason:)`` naming the file and the JSON path,
    ///   for example `spec.json: bitCount: expected a whole number from 1 to 4294967295, found -3`.
    public init(parsing bytes: [UInt8], file: String = "specification") throws(PrefilterError) {
        do throws(JSONReadError) {
            self = try JSONReader.read(bytes) { (reader) throws(JSONReadError) -> HTTPSBloomFilterSpecification in
                let object = try reader.indexObject(at: .root)
                let totalEntries = try reader.requiredInt("totalEntries", in: object)
                guard totalEntries > 0 else {
                    throw .invalidValue(JSONDecodingError(
                        path: object.path(of: "totalEntries"), reason: "expected a positive number, found \(totalEntries)"))
                }
                let bitCount = try reader.requiredInt("bitCount", in: object)
                guard bitCount > 0, bitCount <= Int(UInt32.max) else {
                    throw .invalidValue(JSONDecodingError(
                        path: object.path(of: "bitCount"), reason: "expected a whole number from 1 to \(UInt32.max), found \(bitCount)"))
                }
                var errorRate = 0.0
                if reader.seek("errorRate", in: object) { errorRate = try reader.readDouble(at: object.path(of: "errorRate")) }
                var sha256: String?
                if reader.seek("sha256", in: object), try !reader.skipNull() {
                    sha256 = try reader.readString(at: object.path(of: "sha256"))
                }
                reader.leave(object)
                return HTTPSBloomFilterSpecification(
                    totalEntries: totalEntries, bitCount: UInt32(bitCount), errorRate: errorRate, sha256: sha256)
            }
        } catch {
            throw .invalidFile(path: file, reason: error.description)
        }
    }

    /// The specification as JSON, in DuckDuckGo's field order.
    public func jsonBytes() -> [UInt8] {
        var object = JSONObject()
        object.append("totalEntries", .number(Double(totalEntries)))
        object.append("bitCount", .number(Double(bitCount)))
        object.append("errorRate", .number(errorRate))
        if let sha256 { object.append("sha256", .string(sha256)) }
        return JSONValue.object(object).jsonBytes()
    }
}
