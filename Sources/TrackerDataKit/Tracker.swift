/// A tracker in Tracker Radar's blocklist: a domain whose third-party requests are blocked or
/// watched, with the rules that refine that by URL.
///
/// A request belongs to a tracker when its host is the tracker's ``domain`` or a subdomain of it.
/// See ``TrackerResolver`` for how the rules decide.
public struct Tracker: Sendable, Hashable {
    /// The domain matched against request hosts, for example `google-analytics.com`.
    public var domain: String
    /// The company that controls the tracker; `owner.name` is its key in ``TrackerData/entities``.
    public var owner: Owner? {
        get { ownerStorage?.owner }
        set { ownerStorage = newValue.map(OwnerStorage.init) }
    }
    /// The owner's `name` (its key in ``TrackerData/entities``), read in place: ``owner`` copies
    /// all six strings of the owner, for callers that mostly want this one.
    public var ownerName: String? { ownerStorage?.name }
    // Boxed: inline, the owner's six strings made each tracker of a blocklist's table (a hash
    // table keeps about twice as many slots as trackers) about 100 bytes larger.
    private var ownerStorage: OwnerStorage?
    /// The share of crawled sites that request the tracker, 0–1.
    public var prevalence: Double? {
        get { metadata?.fields.prevalence }
        set { metadata = .changing(metadata) { $0.prevalence = newValue } }
    }
    /// How likely the tracker fingerprints users, 0 (no browser API use) to 3 (excessive).
    public var fingerprinting: Int? {
        get { metadata?.fields.fingerprinting }
        set { metadata = .changing(metadata) { $0.fingerprinting = newValue } }
    }
    /// The share of sites on which the tracker sets cookies, 0–1.
    public var cookies: Double? {
        get { metadata?.fields.cookies }
        set { metadata = .changing(metadata) { $0.cookies = newValue } }
    }
    /// Tracker Radar categories such as `Advertising` or `Analytics`.
    public var categories: [String] {
        get { metadata?.fields.categories ?? [] }
        set { metadata = .changing(metadata) { $0.categories = newValue } }
    }
    /// What happens to a request that no rule matches (the `default` field).
    public var defaultAction: DefaultAction?
    /// URL rules, most specific first; the first one that applies decides.
    public var rules: [Rule]
    /// The rarely present `subdomains` list.
    public var subdomains: [String]? {
        get { metadata?.fields.subdomains }
        set { metadata = .changing(metadata) { $0.subdomains = newValue } }
    }
    // The metadata no rule reads, boxed as the owner is: inline, it made each slot of a
    // blocklist's table of trackers 56 bytes larger (2²¹ slots at 1,000,000 trackers).
    private var metadata: FieldBox<Metadata>?

    /// Creates a tracker.
    public init(
        domain: String,
        owner: Owner? = nil,
        prevalence: Double? = nil,
        fingerprinting: Int? = nil,
        cookies: Double? = nil,
        categories: [String] = [],
        defaultAction: DefaultAction? = .block,
        rules: [Rule] = [],
        subdomains: [String]? = nil
    ) {
        self.domain = domain
        self.ownerStorage = owner.map(OwnerStorage.init)
        self.defaultAction = defaultAction
        self.rules = rules
        metadata = .make(Metadata(
            prevalence: prevalence, fingerprinting: fingerprinting, cookies: cookies, categories: categories,
            subdomains: subdomains))
    }

    /// Sets all the boxed metadata at once (the parser's way: a setter per field would make a
    /// box per field).
    mutating func setMetadata(_ metadata: Metadata) {
        self.metadata = .make(metadata)
    }

    /// An owner in a box of its own, never changed: a new owner is a new box.
    // An owner's name and display name, the rest in a box of its own where it has any: 56
    // bytes rather than 112 (the owner's six strings), one for each tracker of a blocklist.
    private final class OwnerStorage: Sendable, Hashable {
        let name: String
        let displayName: String?
        let details: FieldBox<OwnerDetails>?

        init(_ owner: Owner) {
            name = owner.name
            displayName = owner.displayName
            details = .make(OwnerDetails(
                ownedBy: owner.ownedBy, privacyPolicy: owner.privacyPolicy, url: owner.url,
                localizedName: owner.localizedName))
        }

        var owner: Owner {
            Owner(
                name: name, displayName: displayName, ownedBy: details?.fields.ownedBy,
                privacyPolicy: details?.fields.privacyPolicy, url: details?.fields.url,
                localizedName: details?.fields.localizedName)
        }

        static func == (left: OwnerStorage, right: OwnerStorage) -> Bool { left.owner == right.owner }

        func hash(into hasher: inout Hasher) { hasher.combine(owner) }
    }

    /// The company that controls a tracker, as written in the tracker's `owner` object.
    public struct Owner: Sendable, Hashable {
        /// The entity name, the key into ``TrackerData/entities``.
        public var name: String
        /// A shorter name without company suffixes.
        public var displayName: String?
        /// The parent company, when there is one (`Google Analytics` is owned by `Google LLC`).
        public var ownedBy: String?
        /// The privacy policy URL.
        public var privacyPolicy: String?
        /// The company's URL.
        public var url: String?
        /// A localized name, when the company is known by one.
        public var localizedName: String?

        /// Creates an owner.
        public init(
            name: String, displayName: String? = nil, ownedBy: String? = nil,
            privacyPolicy: String? = nil, url: String? = nil, localizedName: String? = nil
        ) {
            self.name = name
            self.displayName = displayName
            self.ownedBy = ownedBy
            self.privacyPolicy = privacyPolicy
            self.url = url
            self.localizedName = localizedName
        }
    }

    /// The tracker's `default` action for requests that no rule matches.
    public enum DefaultAction: Sendable, Hashable {
        /// Block every third-party request that no rule matches.
        case block
        /// Let requests that no rule matches load (the tracker is still detected).
        case ignore
        /// A value this release does not know; the resolver treats it like ``ignore``, which is
        /// what DuckDuckGo's rule builder does with a default it cannot decode.
        case unsupported(String)

        /// Reads the tds spelling.
        public init(rawValue: String) {
            switch rawValue {
            case "block": self = .block
            case "ignore": self = .ignore
            default: self = .unsupported(rawValue)
            }
        }

        /// The tds spelling.
        public var rawValue: String {
            switch self {
            case .block: "block"
            case .ignore: "ignore"
            case .unsupported(let value): value
            }
        }
    }
}
