import TrackerlessCore

/// One WebKit content rule list of a ``ProtectionSet``: its identifier for the content filter
/// store and its JSON, to compile when the store does not hold the identifier yet.
///
/// The identifier ends with a hash of the JSON, so one identifier always names the same rules:
/// an adapter looks it up in the store (`WKContentRuleListStore.lookUpContentRuleList`,
/// `webkit_user_content_filter_store_load`) and compiles only when it is missing, and removes the
/// store's identifiers that start with ``identifierPrefix`` and are no longer in the set.
public struct EncodedRuleList: Sendable, Hashable {
    /// What a list does.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// Tracker blocking (RuleListBuilder).
        case blocking
        /// Third-party tracking-cookie protection (CookieRules), a list of its own because its
        /// `ignore-previous-rules` exceptions must not cancel blocks.
        case cookies
        /// The embeds of one Click-to-Load rule action (``EncodedRuleList/clickToLoadAction``):
        /// removed for a page where the user clicked to load them.
        case clickToLoad
    }

    /// The prefix of every identifier the runtime makes.
    public static let identifierPrefix = "trackerless-"

    /// `trackerless-<kind>-<index>-<the JSON's XXH64 in 16 hex digits>`: 64 bits against an
    /// accidental change, as many as the 16 digits of SHA-256 it replaced, at memory speed.
    public let identifier: String
    /// What the list does.
    public let kind: Kind
    /// For a ``Kind-swift.enum/clickToLoad`` list, its rule action (`block-ctl-fb`); nil otherwise.
    public let clickToLoadAction: String?
    /// The encoded list, WebKit content-blocker JSON.
    public let json: [UInt8]
    /// The number of rules.
    public let ruleCount: Int

    /// A list named by its kind, its index among the lists of its kind, and its content.
    init(kind: Kind, index: Int, json: [UInt8], ruleCount: Int, clickToLoadAction: String? = nil) {
        self.kind = kind
        self.json = json
        self.ruleCount = ruleCount
        self.clickToLoadAction = clickToLoadAction
        identifier = Self.identifierPrefix + "\(kind.rawValue)-\(index)-" + XXH64.hexDigest(json)
    }

    /// A list read back from the cache with its identifier.
    init(identifier: String, kind: Kind, json: [UInt8], ruleCount: Int, clickToLoadAction: String? = nil) {
        self.identifier = identifier
        self.kind = kind
        self.json = json
        self.ruleCount = ruleCount
        self.clickToLoadAction = clickToLoadAction
    }

    /// The JSON as a string, for APIs that take one (`encodedContentRuleList`).
    public var jsonString: String { String(decoding: json, as: UTF8.self) }
}
