/// A URL canonicalized the way WebKit's URL parser serializes it for content blockers.
///
/// Parsing follows the WHATWG URL Standard for absolute URLs, which WebKit implements: the scheme
/// and the host of special schemes (http, https, ws, wss, ftp, file) are lowercased, IDN hosts
/// become punycode, IPv4 and IPv6 addresses are normalized, default ports are dropped, `\` counts
/// as `/` in special URLs, `.` and `..` path segments are resolved, an empty path becomes `/`, and
/// spaces, controls and non-ASCII are percent-encoded. Content-blocker `url-filter` patterns
/// match ``stringWithoutFragment`` for requests and ``string`` for top and frame URLs.
///
/// ```swift
/// CanonicalURL("HTTP://Bücher.example:80/a/../b c")?.string   // "http://xn--bcher-kva.example/b%20c"
/// ```
///
/// Not modelled: relative references (there is no base URL), Windows drive letters in `file:`
/// URLs, and the character mappings of UTS #46 beyond lowercasing.
public struct CanonicalURL: Sendable, Hashable {
    /// The scheme, lowercase, without the colon.
    public let scheme: String
    /// The host: lowercase, IDNA -> punycode, no trailing port; "" for hostless schemes (data:, about:).
    /// IPv6 addresses keep their brackets (`[::1]`).
    public let host: String
    /// The port; nil when absent or default for the scheme (http/ws 80, https/wss 443, ftp 21).
    public let port: Int?
    /// The serialized userinfo, `user` or `user:password`, kept in ``string``; nil when empty.
    public let user: String?
    /// The path: "/" for empty path of special schemes; non-ASCII/space percent-encoded.
    /// For URLs like `data:` and `about:` this is everything after the colon up to `?` or `#`.
    public let path: String
    /// The query, without "?"; nil when there is no `?`.
    public let query: String?
    /// The fragment, without "#"; nil when there is no `#`.
    public let fragment: String?
    /// The full serialization, including the fragment.
    public let string: String
    /// The serialization without the fragment and its `#`.
    public let stringWithoutFragment: String

    /// Parses and canonicalizes an absolute URL; nil = invalid URL (WebKit would not check it).
    public init?(_ string: String) {
        guard let parts = URLParser(string).parse() else { return nil }
        self.init(parts)
    }

    private init(_ parts: URLParts) {
        scheme = parts.scheme
        host = parts.host ?? ""
        port = parts.port
        user = parts.userinfo
        path = parts.path
        query = parts.query
        fragment = parts.fragment

        var serialization = parts.scheme + ":"
        if let host = parts.host {
            serialization += "//"
            if let userinfo = parts.userinfo { serialization += userinfo + "@" }
            serialization += host
            if let port = parts.port { serialization += ":\(port)" }
        } else if parts.path.hasPrefix("//") {
            // Keeps "web+demo:/.//not-a-host" from reading back as a host.
            serialization += "/."
        }
        serialization += parts.path
        if let query = parts.query { serialization += "?" + query }
        stringWithoutFragment = serialization
        if let fragment = parts.fragment { serialization += "#" + fragment }
        self.string = serialization
    }

    /// The same URL with the final dot of a fully qualified host removed
    /// (`https://tracker.com./a.js` → `https://tracker.com/a.js`); the URL itself when its host
    /// has none.
    ///
    /// WebKit keeps the dot, in the URL it loads and in the string its content blockers match,
    /// but DNS resolves both names to the same address: blocklists, which list names without the
    /// dot, must look the host up without it.
    public func removingFinalDotFromHost() -> CanonicalURL {
        let trimmed = Self.removingFinalDot(fromHost: host)
        guard trimmed.utf8.count != host.utf8.count else { return self }
        return CanonicalURL(URLParts(
            scheme: scheme, host: trimmed, port: port, userinfo: user, path: path, query: query, fragment: fragment))
    }

    /// `host` without the final dot of a fully qualified name (`tracker.com.` → `tracker.com`);
    /// a host that is only a dot, or has none, is returned as it is.
    public static func removingFinalDot(fromHost host: String) -> String {
        guard host.utf8.count > 1, host.utf8.last == UInt8(ascii: ".") else { return host }
        return String(host.dropLast())
    }

    /// Whether the scheme is one of WHATWG's special schemes, whose URLs always have a host and a
    /// path starting with `/`.
    public var isSpecial: Bool {
        URLParser.defaultPorts[scheme] != nil
    }
}

extension CanonicalURL: CustomStringConvertible {
    /// The full serialization, ``string``.
    public var description: String { string }
}
