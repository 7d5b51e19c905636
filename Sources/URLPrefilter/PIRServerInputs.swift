import TrackerlessCore

/// The files Apple's PIR tools read to serve a URL filter's entries: the keyword dataset for
/// `PIRProcessDatabase` (`input.txtpb`), its configuration (`url-config.json`), and the
/// configuration of `PIRService` (`service-config.json`), as in Apple's pir-service-example
/// ("Testing NEURLFilter").
///
/// ```swift
/// let inputs = try PIRServerInputs(entries: entries, appBundleIdentifier: "com.example.filter")
/// inputs.useCaseName   // "com.example.filter.url.filtering"
/// ```
///
/// The operator then runs `PIRProcessDatabase url-config.json`, which writes
/// `url-<shard>.bin` and `url-<shard>.params.txtpb`, and `PIRService service-config.json`.
public struct PIRServerInputs: Sendable, Hashable {
    /// The keywords: the same strings as the Bloom filter's entries. Each has the value `"1"`.
    public let keywords: [String]
    /// The PIR use case: the app's bundle identifier followed by `.url.filtering`, as the
    /// system requires.
    public let useCaseName: String
    /// How many shards `PIRProcessDatabase` is told to make; `PIRService` loads as many.
    public let shardCount: Int
    /// The user tokens `PIRService` accepts (tier 1), as they appear after `Bearer `.
    public let userTokens: [String]

    /// The file stem of the processed shards (`url-0.bin`, `url-0.params.txtpb`).
    public static let fileStem = "url"

    /// Inputs for `entries`.
    ///
    /// - Parameters:
    ///   - entries: the hosts the filter blocks, one PIR row each.
    ///   - appBundleIdentifier: the bundle identifier of the app that configures the URL filter.
    ///   - userTokens: tokens for `service-config.json`; without any, the operator adds them.
    ///   - entryCountPerShard: Apple's suggested 50,000 rows a shard; the shard count is the
    ///     entry count divided by it, at least 1.
    /// - Throws: ``PrefilterError/invalidOption(name:reason:)`` for an empty or malformed
    ///   bundle identifier, a token that is not printable ASCII, or a shard size below 1.
    public init(
        entries: PrefilterEntries, appBundleIdentifier: String, userTokens: [String] = [],
        entryCountPerShard: Int = 50_000
    ) throws(PrefilterError) {
        let identifierCharacters = appBundleIdentifier.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-")
        }
        guard !appBundleIdentifier.isEmpty, identifierCharacters else {
            throw .invalidOption(
                name: "bundle identifier",
                reason: "\(JSONValue.string(appBundleIdentifier.excerpt()).jsonString()) is not a bundle identifier (letters, digits, \".\" and \"-\")")
        }
        for token in userTokens where token.isEmpty || !token.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) {
            throw .invalidOption(name: "user token", reason: "\(JSONValue.string(token.excerpt()).jsonString()) must be printable ASCII without spaces")
        }
        guard entryCountPerShard >= 1 else {
            throw .invalidOption(name: "entries per shard", reason: "\(entryCountPerShard) must be at least 1")
        }
        keywords = entries.entries
        useCaseName = appBundleIdentifier + ".url.filtering"
        shardCount = max(1, entries.count / entryCountPerShard)
        self.userTokens = userTokens
    }

    /// `input.txtpb`: a text-format `KeywordDatabase` with one `rows { keyword: "…" value: "1" }`
    /// a line.
    public func keywordDatabase() -> [UInt8] {
        var text: [UInt8] = []
        text.reserveCapacity(keywords.count * 40)
        for keyword in keywords {
            text.append(contentsOf: "rows { keyword: \"".utf8)
            Self.appendTextFormatBytes(keyword, to: &text)
            text.append(contentsOf: "\" value: \"1\" }\n".utf8)
        }
        return text
    }

    /// `url-config.json` for `PIRProcessDatabase`: a keyword database (`databaseType`, which the
    /// tool requires since January 2026 and its older releases ignore), the dataset, the output
    /// names, Apple's example parameters (`n_4096_logq_27_28_28_logt_5`, 5 trials a shard) and the
    /// shard count.
    public func processingConfiguration() -> [UInt8] {
        var sharding = JSONObject()
        sharding.append("shardCount", .number(Double(shardCount)))
        var object = JSONObject()
        object.append("databaseType", .string("keyword"))
        object.append("inputDatabase", .string("input.txtpb"))
        object.append("outputDatabase", .string("\(Self.fileStem)-SHARD_ID.bin"))
        object.append("outputPirParameters", .string("\(Self.fileStem)-SHARD_ID.params.txtpb"))
        object.append("rlweParameters", .string("n_4096_logq_27_28_28_logt_5"))
        object.append("sharding", .object(sharding))
        object.append("trialsPerShard", .number(5))
        return JSONValue.object(object).jsonBytes() + [UInt8(ascii: "\n")]
    }

    /// `service-config.json` for `PIRService`: the tier-1 user tokens and the use case with its
    /// file stem and shard count.
    public func serviceConfiguration() -> [UInt8] {
        var user = JSONObject()
        user.append("tier", .string("tier1"))
        user.append("tokens", .array(userTokens.map(JSONValue.string)))
        var useCase = JSONObject()
        useCase.append("fileStem", .string(Self.fileStem))
        useCase.append("shardCount", .number(Double(shardCount)))
        useCase.append("name", .string(useCaseName))
        var object = JSONObject()
        object.append("users", .array([.object(user)]))
        object.append("usecases", .array([.object(useCase)]))
        return JSONValue.object(object).jsonBytes() + [UInt8(ascii: "\n")]
    }

    /// Protobuf text format for a `bytes` field: printable ASCII as is, `"` and `\` escaped,
    /// anything else as a three-digit octal escape.
    private static func appendTextFormatBytes(_ string: String, to text: inout [UInt8]) {
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                text.append(UInt8(ascii: "\\"))
                text.append(byte)
            case 0x20...0x7E:
                text.append(byte)
            default:
                text.append(UInt8(ascii: "\\"))
                text.append(UInt8(ascii: "0") + (byte >> 6))
                text.append(UInt8(ascii: "0") + (byte >> 3 & 7))
                text.append(UInt8(ascii: "0") + (byte & 7))
            }
        }
    }
}
