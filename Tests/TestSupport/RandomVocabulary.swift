/// The small vocabulary ``RandomRuleLists`` and ``RandomRequests`` share, so that random rules
/// match random loads often enough to decide something.
///
/// Hosts nest (`b.a.example` under `a.example`), contain one another as text (`xa.example`,
/// `a.example.net`) and sit under single- and multi-label public suffixes, so that first/third
/// party, subdomain conditions and unanchored matches all occur.
public enum RandomVocabulary {
    /// Hosts, lowercase ASCII (valid in `if-domain`).
    public static let hosts = [
        "a.example", "b.a.example", "xa.example", "a.example.net", "c.test", "d.c.test", "news.co.uk",
        "ads.news.co.uk", "127.0.0.1", "localhost", "e.org",
    ]

    /// Path and query words; some uppercase, for case-sensitive filters.
    public static let pathWords = [
        "ad", "ads", "track", "pixel", "img", "a", "b", "AD", "Track", "x.gif", "q=1", "js", "c.test",
    ]

    /// Every `resource-type` string WebKit accepts.
    public static let resourceTypes = [
        "document", "top-document", "child-document", "image", "style-sheet", "script", "font", "svg-document",
        "media", "popup", "ping", "fetch", "websocket", "csp-report", "other", "raw",
    ]

    /// Every `request-method` string WebKit accepts, lowercase.
    public static let methods = ["get", "head", "options", "trace", "put", "delete", "post", "patch", "connect"]
}
