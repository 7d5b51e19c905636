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

/// The `transform` member of a redirect: the parts of the URL to replace.
///
/// Absent members leave their part unchanged. `query-transform` takes precedence over `query`.
public struct URLTransform: Sendable, Hashable {
    /// A port change: remove the port, or set it.
    public enum Port: Sendable, Hashable {
        /// `"port": ""` removes the port.
        case remove
        /// A port number, 0…65535.
        case number(UInt16)
    }

    /// The new scheme, canonicalized to lowercase (never `javascript`).
    public var scheme: String?
    /// The new user name.
    public var username: String?
    /// The new password.
    public var password: String?
    /// The new host.
    public var host: String?
    /// The new port, or its removal.
    public var port: Port?
    /// The new path.
    public var path: String?
    /// The new query: empty to remove it, otherwise starting with `?`. Unused when
    /// ``queryTransform`` is set.
    public var query: String?
    /// Parameter changes applied to the existing query.
    public var queryTransform: QueryTransform?
    /// The new fragment: empty to remove it, otherwise starting with `#`.
    public var fragment: String?

    /// Creates a transform; every part left nil is unchanged.
    public init(
        scheme: String? = nil, username: String? = nil, password: String? = nil, host: String? = nil,
        port: Port? = nil, path: String? = nil, query: String? = nil, queryTransform: QueryTransform? = nil,
        fragment: String? = nil
    ) {
        self.scheme = scheme
        self.username = username
        self.password = password
        self.host = host
        self.port = port
        self.path = path
        self.query = query
        self.queryTransform = queryTransform
        self.fragment = fragment
    }
}

/// The `query-transform` member of a URL transform: parameters to remove, add or replace.
///
/// Removal beats replacement; parameters that are not replace-only are appended. Nothing happens
/// to a URL without a query.
public struct QueryTransform: Sendable, Hashable {
    /// One entry of `add-or-replace-parameters`.
    public struct Parameter: Sendable, Hashable {
        /// The parameter name.
        public var key: String
        /// The new value.
        public var value: String
        /// `replace-only`: change the parameter only when it is present, never append it.
        public var replaceOnly: Bool

        /// Creates a parameter change.
        public init(key: String, value: String, replaceOnly: Bool = false) {
            self.key = key
            self.value = value
            self.replaceOnly = replaceOnly
        }
    }

    /// `remove-parameters`: names of the parameters to remove; nil when absent.
    public var removeParameters: [String]?
    /// `add-or-replace-parameters`; nil when absent.
    public var addOrReplaceParameters: [Parameter]?

    /// Creates a query transform.
    public init(removeParameters: [String]? = nil, addOrReplaceParameters: [Parameter]? = nil) {
        self.removeParameters = removeParameters
        self.addOrReplaceParameters = addOrReplaceParameters
    }
}
