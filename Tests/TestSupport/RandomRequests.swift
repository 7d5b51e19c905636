/// A seeded generator of random loads over ``RandomVocabulary``: pages (a top URL and maybe a
/// frame URL) and the loads they make, with every resource type, methods, ports, userinfo,
/// uppercase, fragments, and hostile URLs (invalid, non-ASCII, `data:`, odd schemes, 64 KB).
///
/// Loads are plain strings, so that this module needs no rule-list types; the tests turn them
/// into requests (`resourceType` and `method` are WebKit's raw names).
///
/// ```swift
/// var requests = RandomRequests(seed: 7)
/// let page = requests.page()
/// let load = requests.load(on: page)
/// ```
public struct RandomRequests: Sendable {
    /// A page: the main document's URL and, for loads from an iframe, the iframe's URL.
    public struct Page: Sendable, Hashable {
        /// The main document's URL.
        public var topURL: String
        /// The issuing iframe's URL, or nil for loads of the main frame.
        public var frameURL: String?

        /// Creates a page.
        public init(topURL: String, frameURL: String? = nil) {
            self.topURL = topURL
            self.frameURL = frameURL
        }
    }

    /// One load, as WebKit's loader would describe it.
    public struct Load: Sendable, Hashable, CustomStringConvertible {
        /// The URL loaded.
        public var url: String
        /// The main document's URL.
        public var topURL: String
        /// The issuing frame's URL, or nil for the main frame.
        public var frameURL: String?
        /// A `resource-type` name (`ResourceType`'s raw value).
        public var resourceType: String
        /// A `request-method` name (`RequestMethod`'s raw value), or nil for GET.
        public var method: String?

        /// Creates a load.
        public init(url: String, topURL: String, frameURL: String? = nil, resourceType: String, method: String? = nil) {
            self.url = url
            self.topURL = topURL
            self.frameURL = frameURL
            self.resourceType = resourceType
            self.method = method
        }

        /// The load as Swift source (URLs longer than 200 characters are abbreviated).
        public var description: String {
            var text = "Request(url: \(Self.literal(url)), topURL: \(Self.literal(topURL))"
            if let frameURL { text += ", frameURL: \(Self.literal(frameURL))" }
            text += ", resourceType: .\(Self.caseName(resourceType))"
            if let method { text += ", method: .\(method)" }
            return text + ")"
        }

        private static func literal(_ text: String) -> String {
            let shown = text.utf8.count > 200
                ? String(text.prefix(120)) + "…(\(text.utf8.count) bytes)…" + String(text.suffix(40)) : text
            return RandomRuleLists.quoted(shown)
        }

        private static func caseName(_ rawValue: String) -> String {
            var name = ""
            var upper = false
            for character in rawValue {
                if character == "-" {
                    upper = true
                } else {
                    name += upper ? character.uppercased() : String(character)
                    upper = false
                }
            }
            return name
        }
    }

    /// The generator's randomness; its state fixes every following page and load.
    public var random: SplitMixGenerator
    /// How often a load's URL is a 64 KB URL (costly to match, so rare by default).
    public var hugeURLProbability: Double

    /// A generator whose pages and loads are fixed by `seed`.
    public init(seed: UInt64, hugeURLProbability: Double = 0.002) {
        random = SplitMixGenerator(seed: seed)
        self.hugeURLProbability = hugeURLProbability
    }

    /// A random page: usually an http(s) URL of the vocabulary, sometimes an odd or invalid one,
    /// with an iframe 40% of the time.
    public mutating func page() -> Page {
        let top: String
        switch random.int(in: 0...19) {
        case 0: top = oddSchemeURL()
        case 1: top = invalidURL()
        case 2: top = nonASCIIURL()
        default: top = wellFormedURL(schemes: ["https", "http", "https"])
        }
        let frame = random.chance(0.4)
            ? (random.chance(0.15) ? oddSchemeURL() : wellFormedURL(schemes: ["https", "http"])) : nil
        return Page(topURL: top, frameURL: frame)
    }

    /// A random load on `page`: any resource type, sometimes a method.
    public mutating func load(on page: Page) -> Load {
        let type = random.pick(RandomVocabulary.resourceTypes)
        let method = random.chance(0.25) ? random.pick(RandomVocabulary.methods) : nil
        // A main-frame navigation has no issuing frame.
        let frame = type == "top-document" ? nil : page.frameURL
        return Load(url: url(), topURL: page.topURL, frameURL: frame, resourceType: type, method: method)
    }

    /// A random load URL: mostly well formed over the vocabulary, sometimes hostile.
    public mutating func url() -> String {
        if random.chance(hugeURLProbability) { return hugeURL() }
        switch random.int(in: 0...39) {
        case 0, 1, 2: return oddSchemeURL()
        case 3, 4: return invalidURL()
        case 5, 6: return nonASCIIURL()
        default: return wellFormedURL(schemes: ["https", "http", "https", "http", "ws", "wss", "HTTP", "HtTpS"])
        }
    }

    /// A URL over the vocabulary: scheme, maybe userinfo, a host (maybe uppercase), maybe a port,
    /// path words, maybe a query and a fragment.
    public mutating func wellFormedURL(schemes: [String]) -> String {
        var url = random.pick(schemes) + "://"
        if random.chance(0.08) {
            // Userinfo, some of it spelled like a host: `https://tracker.com:pw@evil.com/` is evil.com.
            let other = random.pick(RandomVocabulary.hosts)
            url += random.pick(["user@", "u:p@", "a.example@", other + "@", other + ":pw@", other + ".:1@", "x." + other + "@"])
        }
        let host = random.pick(RandomVocabulary.hosts)
        url += random.chance(0.1) ? host.uppercased() : host
        // A fully qualified host keeps its final dot, also written `%2e`.
        if random.chance(0.05) { url += random.pick([".", ".", "%2e", "%2E", ".."]) }
        if random.chance(0.15) { url += random.pick([":80", ":443", ":8080", ":1", ":"]) }
        url += "/"
        url += (0..<random.int(in: 0...3)).map { _ in random.pick(RandomVocabulary.pathWords) }.joined(separator: "/")
        if random.chance(0.25) { url += random.pick(["?q=1", "?u=http://c.test/ad", "?AD=1&x", "?", "?u=a@c.test/", "@c.test/ad"]) }
        if random.chance(0.1) { url += random.pick(["#track", "#", "#AD"]) }
        return url
    }

    /// `data:`, `blob:`, `about:`, `file:`, `javascript:`, `ftp:` and custom schemes.
    public mutating func oddSchemeURL() -> String {
        random.pick([
            "data:text/plain,ad", "data:image/gif;base64,R0lGOD", "blob:https://a.example/5b1d-ad",
            "about:blank", "about:srcdoc", "file:///tmp/ad.js", "javascript:void(0)", "ftp://a.example/ad",
            "chrome-extension://abc/ad.js", "ws://c.test:80/track", "wss://b.a.example/ads", "x-custom:ad",
            "http:a.example/ad", "https:/c.test//track",
        ])
    }

    /// Strings that are not valid URLs, or only barely.
    public mutating func invalidURL() -> String {
        random.pick([
            "", "http://", "://a.example/ad", "not a url", "http://a b.example/", "http://[::1",
            "https://a.example:99999/ad", "http://%zz/", "https://c.test:port/", "ad", "/relative/ad",
            "http://a.example/\u{0}x", "https://exa mple.com/ad",
        ])
    }

    /// URLs with non-ASCII hosts, paths or queries (canonicalized to punycode or percent-escapes).
    public mutating func nonASCIIURL() -> String {
        random.pick([
            "https://bücher.example/ad", "https://a.example/ü/ad?é=1", "http://ÄD.c.test/track",
            "https://xn--bcher-kva.example/ad", "https://a.example/日本/track#片", "https://münchen.news.co.uk/ad",
            "https://a.example/\u{1F600}", "https://c.test/ad?q=\u{00A0}",
        ])
    }

    /// A URL of 64 KB: a vocabulary host and a long path of words.
    public mutating func hugeURL() -> String {
        var url = "https://" + random.pick(RandomVocabulary.hosts) + "/"
        let word = random.pick(["ad/", "a", "track/", "x"])
        url += String(repeating: word, count: (65_536 - url.utf8.count) / word.utf8.count)
        return url
    }
}
