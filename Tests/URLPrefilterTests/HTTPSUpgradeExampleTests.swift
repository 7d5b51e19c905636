import Testing
import TrackerDataKit
@testable import URLPrefilter

/// The upgrade decision on a filter small enough to read, without the shared reference data.
@Suite("HTTPS upgrade examples")
struct HTTPSUpgradeExampleTests {
    static func upgrade(configuration: String? = nil) throws -> HTTPSUpgrade {
        var filter = try HTTPSUpgradeBloomFilter(entryCount: 3, falsePositiveRate: 0.000001)
        for host in ["secure.example.com", "broken.example.com", "excepted.example.com"] { filter.insert(host) }
        let privacyConfiguration = try configuration.map { text throws(TrackerDataError) in
            try PrivacyConfiguration(parsing: Array(text.utf8), file: "config.json")
        }
        return HTTPSUpgrade(bloomFilter: filter, allowlist: ["Broken.Example.com"], privacyConfiguration: privacyConfiguration)
    }

    @Test("http and ws become https and wss; the rest of the URL is kept")
    func upgrades() throws {
        let upgrade = try Self.upgrade()
        #expect(upgrade.upgradedURL(forRequestURL: "http://secure.example.com/a?b#c", topURL: "http://secure.example.com/")
            == "https://secure.example.com/a?b#c")
        #expect(upgrade.upgradedURL(forRequestURL: "ws://secure.example.com/socket", topURL: "https://site.example/")
            == "wss://secure.example.com/socket")
        #expect(upgrade.upgradedURL(forRequestURL: "HTTP://SECURE.example.com:80/", topURL: "http://x.example/")
            == "https://secure.example.com/")
    }

    @Test("No upgrade: already secure, unknown host, a subdomain, an explicit port, the allowlist, not a URL")
    func keeps() throws {
        let upgrade = try Self.upgrade()
        for url in [
            "https://secure.example.com/", "http://other.example.com/", "http://www.secure.example.com/",
            "http://secure.example.com:8080/", "http://broken.example.com/", "ftp://secure.example.com/", "not a url",
        ] {
            #expect(upgrade.upgradedURL(forRequestURL: url, topURL: url) == nil, "\(url)")
        }
    }

    @Test("The configuration's https exceptions apply to the request and to the site; a disabled feature upgrades nothing")
    func configuration() throws {
        let excepted = try Self.upgrade(configuration: """
            {"features": {"https": {"state": "enabled", "exceptions": [{"domain": "excepted.example.com"}]}},
             "unprotectedTemporary": [{"domain": "unprotected.example"}]}
            """)
        #expect(excepted.upgradedURL(forRequestURL: "http://excepted.example.com/", topURL: "http://a.example/") == nil)
        #expect(excepted.upgradedURL(forRequestURL: "http://secure.example.com/", topURL: "http://excepted.example.com/") == nil)
        #expect(excepted.upgradedURL(forRequestURL: "http://secure.example.com/", topURL: "http://www.unprotected.example/") == nil)
        #expect(excepted.upgradedURL(forRequestURL: "http://secure.example.com/", topURL: "http://a.example/")
            == "https://secure.example.com/")
        let disabled = try Self.upgrade(configuration: #"{"features": {"https": {"state": "disabled"}}}"#)
        #expect(disabled.upgradedURL(forRequestURL: "http://secure.example.com/", topURL: "http://a.example/") == nil)
    }

    @Test("The .bin filter's spec: written and read back")
    func specificationRoundTrip() throws {
        var filter = try HTTPSUpgradeBloomFilter(entryCount: 2, falsePositiveRate: 0.001)
        filter.insert("a.example")
        let specification = filter.specification(falsePositiveRate: 0.001)
        let read = try HTTPSBloomFilterSpecification(parsing: specification.jsonBytes())
        #expect(read == specification)
        #expect(try HTTPSUpgradeBloomFilter(data: filter.data, specification: read) == filter)
    }

    @Test("Hosts with bytes above 0x7F hash as C's signed char")
    func signedCharacters() throws {
        // Computed independently with the bytes of "bücher.example" read as signed (0xC3 -> -61).
        let expected: [UInt8] = [
            0x00, 0x04, 0x10, 0x00, 0xA0, 0x20, 0x00, 0x01, 0x04, 0x01, 0x22,
            0x08, 0x00, 0x00, 0x41, 0x01, 0x08, 0x02, 0x08, 0x00, 0x50, 0x04,
        ]
        var filter = try HTTPSUpgradeBloomFilter(data: Array(repeating: 0, count: 22), bitCount: 173, entryCount: 6)
        filter.insert("bücher.example")
        #expect(filter.data == expected)
    }
}
