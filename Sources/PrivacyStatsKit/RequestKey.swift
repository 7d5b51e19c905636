import TrackerDataKit
import TrackerlessCore

/// A request: its (URL, type). Hashes the URL once, when made: the page's table and the site's
/// cache both look it up, and a table that grows rehashes it. The type is left out of the hash
/// (the same URL rarely comes with several types); equality compares it.
struct RequestKey: Hashable, Sendable {
    let url: String
    let type: RequestType
    private let hash: Int

    init(url: String, type: RequestType) {
        self.url = url
        self.type = type
        hash = url.hashValue
    }

    /// The request of the same URL with another type; the URL is not hashed again.
    func withType(_ type: RequestType) -> RequestKey {
        RequestKey(url: url, type: type, hash: hash)
    }

    private init(url: String, type: RequestType, hash: Int) {
        self.url = url
        self.type = type
        self.hash = hash
    }

    static func == (lhs: RequestKey, rhs: RequestKey) -> Bool {
        lhs.hash == rhs.hash && lhs.type == rhs.type && lhs.url == rhs.url
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(hash)
    }
}
