/// The one condition a trigger may carry: on the main document's domain or URL, or on the URL of
/// the frame that issues the load.
///
/// `if-` conditions apply the rule only when at least one entry matches; `unless-` conditions only
/// when none does. Domains are lowercase ASCII (punycode); a leading `*` also admits subdomains.
/// URL entries are patterns in the `url-filter` regex subset.
public enum Condition: Sendable, Hashable {
    /// `if-domain`: the main document's host is one of the domains.
    case ifDomain([String])
    /// `unless-domain`: the main document's host is none of the domains.
    case unlessDomain([String])
    /// `if-top-url`: a pattern matches the main document's URL.
    case ifTopURL([String])
    /// `unless-top-url`: no pattern matches the main document's URL.
    case unlessTopURL([String])
    /// `if-frame-url`: a pattern matches the URL of the frame that issues the load.
    case ifFrameURL([String])
    /// `unless-frame-url`: no pattern matches the URL of the frame that issues the load.
    case unlessFrameURL([String])

    /// The JSON key of the condition, for example `if-domain`.
    public var key: String {
        switch self {
        case .ifDomain: "if-domain"
        case .unlessDomain: "unless-domain"
        case .ifTopURL: "if-top-url"
        case .unlessTopURL: "unless-top-url"
        case .ifFrameURL: "if-frame-url"
        case .unlessFrameURL: "unless-frame-url"
        }
    }

    /// The domains or patterns, as written.
    public var values: [String] {
        switch self {
        case .ifDomain(let values), .unlessDomain(let values), .ifTopURL(let values),
            .unlessTopURL(let values), .ifFrameURL(let values), .unlessFrameURL(let values):
            values
        }
    }

    /// The condition keys in the order WebKit's parser looks for them.
    static let keysInParsingOrder = [
        "if-domain", "unless-domain", "if-top-url", "unless-top-url", "if-frame-url", "unless-frame-url",
    ]

    /// Builds the condition for one of ``keysInParsingOrder``.
    static func make(key: String, values: [String]) -> Condition? {
        switch key {
        case "if-domain": .ifDomain(values)
        case "unless-domain": .unlessDomain(values)
        case "if-top-url": .ifTopURL(values)
        case "unless-top-url": .unlessTopURL(values)
        case "if-frame-url": .ifFrameURL(values)
        case "unless-frame-url": .unlessFrameURL(values)
        default: nil
        }
    }

    /// Whether the rule applies when a pattern matches (`if-`) rather than when none does.
    package var isPositive: Bool {
        switch self {
        case .ifDomain, .ifTopURL, .ifFrameURL: true
        case .unlessDomain, .unlessTopURL, .unlessFrameURL: false
        }
    }

    /// Whether the entries are domains rewritten into patterns.
    package var isDomainList: Bool {
        switch self {
        case .ifDomain, .unlessDomain: true
        default: false
        }
    }

    /// Whether the patterns are matched against the frame URL rather than the main document URL.
    package var isOnFrameURL: Bool {
        switch self {
        case .ifFrameURL, .unlessFrameURL: true
        default: false
        }
    }

    /// The url-filter patterns WebKit matches: for domains the regexes it rewrites them into,
    /// otherwise the entries themselves.
    public var patterns: [String] {
        switch self {
        case .ifDomain(let domains), .unlessDomain(let domains):
            domains.map(Condition.topURLPattern(forDomain:))
        default:
            values
        }
    }

    /// Rewrites an `if-domain`/`unless-domain` entry into the top-URL regex WebKit uses.
    ///
    /// Copies WebKit's rewrite exactly, quirks included: only `\ { } [ . ? * $` are escaped (so
    /// `a|b` becomes a regex error and `a+b` a quantifier), and the result is not anchored, so a
    /// top URL that merely contains `scheme://domain/` somewhere matches.
    public static func topURLPattern(forDomain domain: String) -> String {
        var body = Substring(domain)
        var allowsSubdomains = false
        if body.first == "*" {
            allowsSubdomains = true
            body = body.dropFirst()
        }
        var pattern = #"[a-z][a-z+.-]*:\/\/"#
        if allowsSubdomains { pattern += #"([^/]*\.)*"# }
        for character in body.unicodeScalars {
            switch character {
            case "\\", "{", "}", "[", ".", "?", "*", "$":
                pattern.unicodeScalars.append("\\")
            default:
                break
            }
            pattern.unicodeScalars.append(character)
        }
        pattern += "[:/]"
        return pattern
    }
}
