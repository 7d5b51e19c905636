extension Tracker {
    /// One entry of a tracker's `rules`: a regular expression over the request URL with what to
    /// do when it matches.
    public struct Rule: Sendable, Hashable {
        /// The regular expression, matched case-insensitively and unanchored against the whole
        /// request URL (for example `google-analytics\.com/analytics\.js`).
        public var rule: String {
            get { pattern.string }
            set { pattern = .own(newValue) }
        }
        // The pattern, its bytes shared with the tracker's other rules where the parser made it.
        var pattern: Pattern
        /// What to do when the rule applies; nil means block.
        public var action: Action? {
            get {
                switch actionTag {
                case .none: nil
                case .block: .block
                case .ignore: .ignore
                case .named: rareFields?.fields.action
                }
            }
            set {
                actionTag = ActionTag(newValue)
                // A named action (the rare kind, with a string) is kept in the box.
                let named = actionTag == .named ? newValue : nil
                if named != rareFields?.fields.action { rareFields = .changing(rareFields) { $0.action = named } }
            }
        }
        /// The name of the surrogate script to serve instead of blocking, a key of ``Surrogates``.
        public var surrogate: String? {
            get { rareFields?.fields.surrogate }
            set { rareFields = .changing(rareFields) { $0.surrogate = newValue } }
        }
        /// When present, the rule applies only to requests matching it; otherwise the next rule
        /// is tried.
        public var options: Condition? {
            get { rareFields?.fields.options }
            set { rareFields = .changing(rareFields) { $0.options = newValue } }
        }
        /// When present and matching, a request the rule applies to is not blocked.
        public var exceptions: Condition? {
            get { rareFields?.fields.exceptions }
            set { rareFields = .changing(rareFields) { $0.exceptions = newValue } }
        }
        /// Fingerprinting likelihood of the matched resource, 0–3 (metadata).
        public var fingerprinting: Int? {
            get { rareFields?.fields.fingerprinting }
            set { rareFields = .changing(rareFields) { $0.fingerprinting = newValue } }
        }
        /// Share of sites where the matched resource sets cookies (metadata).
        public var cookies: Double? {
            get { rareFields?.fields.cookies }
            set { rareFields = .changing(rareFields) { $0.cookies = newValue } }
        }
        /// A human note.
        public var comment: String? {
            get { rareFields?.fields.comment }
            set { rareFields = .changing(rareFields) { $0.comment = newValue } }
        }
        // The action in a byte, ``ActionTag/named`` for one whose name is in `rareFields`.
        private var actionTag: ActionTag
        // The rarer fields, boxed: inline, they made each rule 136 bytes, and a blocklist of
        // 1,000,000 trackers holds 3,000,000 rules at once; most rules have none of them.
        private var rareFields: FieldBox<RareFields>?

        /// Creates a rule.
        public init(
            rule: String, action: Action? = nil, surrogate: String? = nil,
            options: Condition? = nil, exceptions: Condition? = nil,
            fingerprinting: Int? = nil, cookies: Double? = nil, comment: String? = nil
        ) {
            var fields = RareFields()
            fields.exceptions = exceptions
            fields.cookies = cookies
            fields.fingerprinting = fingerprinting
            fields.surrogate = surrogate
            fields.options = options
            fields.comment = comment
            self.init(rule: rule, action: action, fields: fields)
        }

        /// A rule of `rule`, `action` and the rarer `fields`, boxed once (the parser's way: a
        /// setter per field would make a box per field).
        init(rule: String, action: Action?, fields: RareFields) {
            pattern = .own(rule)
            actionTag = ActionTag(action)
            var fields = fields
            let named = actionTag == .named ? action : nil
            if named != fields.action { fields.action = named }
            rareFields = .make(fields)
        }

        /// A rule's `action`.
        public enum Action: Sendable, Hashable {
            /// Block (the same as no action).
            case block
            /// Do not block.
            case ignore
            /// A Click-to-Load block such as `block-ctl-fb` or `block-ctl-yt`: blocked until the
            /// user chooses to load the embed. The associated value is the whole action string.
            case blockClickToLoad(String)
            /// An action this release does not know. The rule is kept in the model but skipped
            /// when deciding, as the reference tests require ("unknown rule action ignored").
            case unsupported(String)

            /// Reads the tds spelling.
            public init(rawValue: String) {
                if rawValue == "block" {
                    self = .block
                } else if rawValue == "ignore" {
                    self = .ignore
                } else if rawValue.hasPrefix("block-ctl-") {
                    self = .blockClickToLoad(rawValue)
                } else {
                    self = .unsupported(rawValue)
                }
            }

            /// The tds spelling.
            public var rawValue: String {
                switch self {
                case .block: "block"
                case .ignore: "ignore"
                case .blockClickToLoad(let value), .unsupported(let value): value
                }
            }

            /// Whether the resolver can act on it (everything but ``unsupported(_:)``).
            public var isSupported: Bool {
                if case .unsupported = self { return false }
                return true
            }
        }

        /// The `options` or `exceptions` of a rule: a list of site domains and a list of request
        /// types.
        ///
        /// A condition matches a request when every list that is present matches: the site host
        /// is one of `domains` or a subdomain of one, and the request type is one of `types`.
        /// A present but empty list matches nothing; a condition with neither list is treated as
        /// absent.
        public struct Condition: Sendable, Hashable {
            /// Site domains; each also covers its subdomains.
            public var domains: [String]?
            /// Request types.
            public var types: [RequestType]?

            /// Creates a condition.
            public init(domains: [String]? = nil, types: [RequestType]? = nil) {
                self.domains = domains
                self.types = types
            }

            /// Whether neither list is present, so the condition says nothing.
            public var isEmpty: Bool { domains == nil && types == nil }
        }
    }
}
