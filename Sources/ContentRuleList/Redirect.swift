/// Where a `redirect` action sends a request: the `redirect` member of the action.
///
/// WebKit looks for the members in this order and uses the first one present:
/// `extension-path`, `regex-substitution`, `transform`, `url`.
public enum Redirect: Sendable, Hashable {
    /// `extension-path`: a path starting with `/`, resolved against the extension's base URL.
    case extensionPath(String)
    /// `regex-substitution`: the rule's `url-filter` is run as a JavaScript regular expression on
    /// the URL and `\0`…`\9` are replaced by its groups.
    case regexSubstitution(String)
    /// `transform`: change parts of the URL.
    case transform(URLTransform)
    /// `url`: an absolute URL, not `javascript:`.
    case url(String)
}
