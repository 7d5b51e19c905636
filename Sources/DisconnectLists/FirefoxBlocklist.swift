public import TrackerlessCore

/// One of the WebKit rule lists Firefox for iOS generates: an action applied to the trackers of
/// one category, in a file named `disconnect-<action>-<category>.json`.
public struct FirefoxBlocklist: Sendable, Hashable, CustomStringConvertible {
    /// What the list's rules do.
    public enum Action: String, Sendable, Hashable, CaseIterable {
        /// `block`: the tracker's loads are cancelled (strict protection).
        case block
        /// `block-cookies`: the tracker's loads go out without cookies (standard protection).
        case blockCookies = "block-cookies"
    }

    /// What the list's rules do.
    public var action: Action
    /// Whose trackers the list covers.
    public var category: FirefoxCategory

    /// Creates a list description.
    public init(_ action: Action, _ category: FirefoxCategory) {
        self.action = action
        self.category = category
    }

    /// The list's name as Firefox names it, for example `disconnect-block-cookies-advertising`;
    /// Firefox uses it as the `WKContentRuleListStore` identifier.
    public var name: String { "disconnect-\(action.rawValue)-\(category.rawValue)" }

    /// The file name, ``name`` with `.json`.
    public var fileName: String { name + ".json" }

    /// ``name``.
    public var description: String { name }

    /// The list named `name` (with or without `.json`), if it is one of ``all``.
    public init?(name: String) {
        let bare = name.hasSuffix(".json") ? String(name.dropLast(5)) : name
        guard let match = Self.all.first(where: { $0.name == bare }) else { return nil }
        self = match
    }

    /// The ten lists of Firefox's current generator, in its order: `block` for advertising,
    /// analytics, social, cryptomining, fingerprinting and content, then `block-cookies` for
    /// advertising, analytics, social and content. The first generator wrote the same files
    /// except `disconnect-block-content.json`.
    public static let all: [FirefoxBlocklist] =
        [FirefoxCategory.advertising, .analytics, .social, .cryptomining, .fingerprinting, .content].map {
            FirefoxBlocklist(.block, $0)
        } + [FirefoxCategory.advertising, .analytics, .social, .content].map { FirefoxBlocklist(.blockCookies, $0) }
}
