/// The components of a parsed URL, before serialization.
struct URLParts {
    var scheme: String
    /// nil when the URL has no authority (`data:`, `about:`, `mailto:`).
    var host: String?
    var port: Int?
    var userinfo: String?
    var path: String
    var query: String?
    var fragment: String?
}
