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
