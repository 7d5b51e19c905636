extension Tracker {
    /// One entry of a tracker's `rules`: a regular expression over the request URL with what to
    /// do when it matches.
    public struct Rule: Sendable, Hashable {
        /// The regular expression, matched case-insensitively and unanchored against the whole
        /// request URL (for example `google-analytics\.com/analytics\.js`).
        public var rule: String
        /// What to do when the rule applies; nil means block.
        public var action: Action?
        /// The name of the surrogate script to serve instead of blocking, a key of ``Surrogates``.
        public var surrogate: String?
        /// When present, the rule applies only to requests matching it; otherwise the next rule
        /// is tried.
        public var options: Condition?
        /// When present and matching, a request the rule applies to is not blocked.
        public var exceptions: Condition?
        /// Fingerprinting likelihood of the matched resource, 0–3 (metadata).
        public var fingerprinting: Int?
        /// Share of sites where the matched resource sets cookies (metadata).
        public var cookies: Double?
        /// A human note.
        public var comment: String?

        /// Creates a rule.
        public init(
            rule: String, action: Action? = nil, surrogate: String? = nil,
            options: Condition? = nil, exceptions: Condition? = nil,
            fingerprinting: Int? = nil, cookies: Double? = nil, comment: String? = nil
        ) {
            self.rule = rule
            self.action = action
            self.surrogate = surrogate
            self.options = options
            self.exceptions = exceptions
            self.fingerprinting = fingerprinting
            self.cookies = cookies
            self.comment = comment
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
