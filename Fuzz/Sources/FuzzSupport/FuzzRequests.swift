/// URLs the fuzzers decide with a decoded blocklist or rule list: first and third party, a
/// subdomain, a path, an IP address, and the spellings WebKit accepts for one host.
public enum FuzzRequests {
    /// Request URLs, for any page.
    public static let urls = [
        "https://tracker.example/a.js", "https://sub.tracker.example/pixel.gif?id=1", "http://site.example/",
        "https://cdn.example/lib.js", "https://www.example.com/", "https://127.0.0.1/x", "https://tracker.example./a.js",
        "https://a:b@tracker.example/a.js", "wss://tracker.example/socket", "about:blank", "not a url",
    ]

    /// Page URLs.
    public static let sites = ["https://site.example/", "https://tracker.example/", "http://www.example.com/a"]

    /// The host of `url` for decisions keyed by host (the part between `//` and the next `/`).
    public static func host(of url: String) -> String {
        guard let start = url.range(of: "//")?.upperBound else { return url }
        return String(url[start...].prefix { $0 != "/" })
    }
}
