import Testing
import TrackerDataKit
import TrackerlessCore
import TrackerlessTestSupport
@testable import URLPrefilter

/// DuckDuckGo's Smarter Encryption reference files (privacy-reference-tests/https-upgrades).
@Suite("DuckDuckGo HTTPS upgrades", .enabled(if: SharedData.shouldRun, SharedData.skipMessage))
struct HTTPSUpgradeTests {
    static let folder = "privacy-reference-tests/https-upgrades"
    /// The hosts the reference `.bin` was built from (the folder's README).
    static let upgradableHosts = [
        "firsttest.com", "secondtest.com", "secure.thirdtest.com", "s.fourthtest.com", "fifth-test.com",
        "a.b.c.d.e.sixthtest.com",
    ]

    static func file(_ name: String) throws -> [UInt8] {
        try #require(SharedData.bytes("\(folder)/\(name)"), "missing \(folder)/\(name)")
    }

    static func referenceFilter() throws -> HTTPSUpgradeBloomFilter {
        let specification = try HTTPSBloomFilterSpecification(parsing: file("https_bloomfilter_spec_reference.json"))
        return try HTTPSUpgradeBloomFilter(data: file("https_bloomfilter_reference.bin"), specification: specification)
    }

    @Test("Building from the README's hosts reproduces the reference .bin byte for byte")
    func buildsReferenceBinary() throws {
        var filter = try HTTPSUpgradeBloomFilter(entryCount: Self.upgradableHosts.count, falsePositiveRate: 0.000001)
        for host in Self.upgradableHosts { filter.insert(host) }
        #expect(filter.bitCount == 173)
        #expect(filter.hashCount == 20)
        #expect(filter.data == (try Self.file("https_bloomfilter_reference.bin")))
        let specification = try HTTPSBloomFilterSpecification(parsing: Self.file("https_bloomfilter_spec_reference.json"))
        #expect(filter.specification(falsePositiveRate: 0.000001) == specification)
    }

    @Test("Reading the reference .bin with its specification: members in, others out")
    func readsReferenceBinary() throws {
        let filter = try Self.referenceFilter()
        for host in Self.upgradableHosts { #expect(filter.contains(host), "\(host)") }
        for host in ["fake.firsttest.com", "negativetest.com", "thirdtest.com", "example.com", "sixthtest.com"] {
            #expect(!filter.contains(host), "\(host)")
        }
    }

    @Test("A damaged .bin is refused: checksum and size")
    func damagedBinary() throws {
        let specification = try HTTPSBloomFilterSpecification(parsing: Self.file("https_bloomfilter_spec_reference.json"))
        var data = try Self.file("https_bloomfilter_reference.bin")
        data[3] ^= 1
        #expect(throws: BloomFilterError.self) { try HTTPSUpgradeBloomFilter(data: data, specification: specification) }
        var unchecked = specification
        unchecked.sha256 = nil
        #expect(throws: BloomFilterError.dataSizeMismatch(expectedBytes: 22, foundBytes: 21)) {
            try HTTPSUpgradeBloomFilter(data: Array(data.dropLast()), specification: unchecked)
        }
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var set: String
        var name: String
        var topURL: String
        var requestURL: String
        var expectURL: String
        var exceptPlatforms: [String]
        var testDescription: String { "\(set): \(name)" }
    }

    static let cases: [Case] = {
        guard let root = SharedData.json("\(folder)/tests.json"), let sets = try? root.members() else { return [] }
        var cases: [Case] = []
        for (setName, set) in sets {
            for test in (try? set.required("tests").array()) ?? [] {
                guard let name = try? test.required("name").string(),
                      let topURL = try? test.required("siteURL").string(),
                      let requestURL = try? test.required("requestURL").string(),
                      let expectURL = try? test.required("expectURL").string()
                else { continue }
                let except = (try? test["exceptPlatforms"]?.stringArray()) ?? []
                cases.append(Case(set: setName, name: name, topURL: topURL, requestURL: requestURL,
                                  expectURL: expectURL, exceptPlatforms: except))
            }
        }
        return cases
    }()

    @Test("tests.json has its cases")
    func caseCount() {
        #expect(Self.cases.count == 18)
    }

    /// Every case, twice: as DuckDuckGo's Apple browsers run them (`ios-browser`: the `.bin`
    /// filter, no negative filter; the negative-filter cases are excepted there), and with the
    /// negative filter and its allowlist loaded, as the browser extension runs them. Subrequests
    /// are excepted on iOS only because a WebView cannot rewrite them; the decision itself
    /// applies, so they run in both.
    @Test("tests.json", arguments: cases, [false, true])
    func referenceCase(_ testCase: Case, withNegativeFilter: Bool) throws {
        let excepted = testCase.exceptPlatforms.contains("ios-browser") && testCase.set != "subrequests"
        guard withNegativeFilter || !excepted else { return }
        let configuration = try PrivacyConfiguration(parsing: Self.file("config_reference.json"), file: "config_reference.json")
        let allowlist = try HTTPSUpgrade.allowlist(parsing: Self.file("https_allowlist_reference.json"))
        var upgrade = HTTPSUpgrade(bloomFilter: try Self.referenceFilter(), allowlist: allowlist,
                                   privacyConfiguration: configuration)
        if withNegativeFilter {
            upgrade.negativeBloomFilter = try JSBloomFilter(
                parsing: Self.file("https_negative_bloomfilter_reference.json"),
                file: "https_negative_bloomfilter_reference.json")
            upgrade.negativeAllowlist = try HTTPSUpgrade.allowlist(parsing: Self.file("https_negative_allowlist_reference.json"))
        }
        let result = upgrade.upgradedURL(forRequestURL: testCase.requestURL, topURL: testCase.topURL)
            ?? testCase.requestURL
        #expect(result == testCase.expectURL)
    }

    @Test("The negative filter tells hosts known not to serve HTTPS from unknown ones")
    func negativeFilterKnowledge() throws {
        var upgrade = HTTPSUpgrade(bloomFilter: try Self.referenceFilter())
        #expect(upgrade.knowledge(ofHost: "negativetest.com") == .unknown)
        upgrade.negativeBloomFilter = try JSBloomFilter(
            parsing: Self.file("https_negative_bloomfilter_reference.json"), file: "https_negative_bloomfilter_reference.json")
        upgrade.negativeAllowlist = ["s.secondnegative.com"]
        #expect(upgrade.knowledge(ofHost: "firsttest.com") == .secure)
        #expect(upgrade.knowledge(ofHost: "negativetest.com") == .insecure)
        #expect(upgrade.knowledge(ofHost: "s.secondnegative.com") == .secure)
        #expect(upgrade.knowledge(ofHost: "unknown-host.com") == .unknown)
    }

    @Test("Local hosts are never upgraded", arguments: [
        "localhost", "a.localhost", "printer.local", "x.test", "x.example", "x.invalid", "10.0.0.1", "127.0.0.1",
        "172.16.4.4", "192.168.1.1", "169.254.1.1", "[::1]", "[fd7b:d40d:c3f5:4cfd::]", "[fe80::1]",
    ])
    func localHosts(_ host: String) {
        #expect(HTTPSUpgrade.isLocal(host))
    }

    @Test("Public hosts are not local", arguments: ["example.com", "8.8.8.8", "172.32.0.1", "[2001:db8::1]", "test.com"])
    func publicHosts(_ host: String) {
        #expect(!HTTPSUpgrade.isLocal(host))
    }

    @Test("A malformed specification names the field")
    func malformedSpecification() {
        #expect(throws: PrefilterError.invalidFile(
            path: "spec.json", reason: "bitCount: expected a whole number from 1 to 4294967295, found -3")
        ) {
            try HTTPSBloomFilterSpecification(parsing: Array(#"{"totalEntries": 6, "bitCount": -3}"#.utf8), file: "spec.json")
        }
        #expect(throws: PrefilterError.self) {
            try HTTPSBloomFilterSpecification(parsing: Array(#"{"bitCount": 3"#.utf8), file: "spec.json")
        }
    }
}

/// The extension's JSON filters of the same folder.
@Suite("DuckDuckGo jsbloom filters", .enabled(if: SharedData.shouldRun, SharedData.skipMessage))
struct JSBloomFilterTests {
    static let negativeHosts = ["negativetest.com", "s.secondnegative.com", "thirdnegative.com"]

    @Test("Building the negative filter from the README's hosts reproduces its JSON byte for byte")
    func buildsNegativeFilter() throws {
        let reference = try HTTPSUpgradeTests.file("https_negative_bloomfilter_reference.json")
        var filter = try JSBloomFilter(entryCount: 3, falsePositiveRate: 0.000001)
        for host in Self.negativeHosts { filter.insert(host) }
        #expect(filter.bitCount == 88)
        #expect(filter.lastRound == 20)
        let read = try JSBloomFilter(parsing: reference, file: "https_negative_bloomfilter_reference.json")
        #expect(filter.data == read.data)
        #expect(String(decoding: filter.jsonBytes(), as: UTF8.self)
            == (try JSONParser.parse(reference)).jsonString())
    }

    @Test("The main JSON filter holds the README's hosts and not the others")
    func readsMainFilter() throws {
        let filter = try JSBloomFilter(
            parsing: HTTPSUpgradeTests.file("https_bloomfilter_reference.json"), file: "https_bloomfilter_reference.json")
        for host in HTTPSUpgradeTests.upgradableHosts { #expect(filter.contains(host), "\(host)") }
        for host in ["fake.firsttest.com", "negativetest.com", "thirdnegative.com", "example.com"] {
            #expect(!filter.contains(host), "\(host)")
        }
    }

    @Test("A damaged JSON filter is refused")
    func damaged() throws {
        let text = String(decoding: try HTTPSUpgradeTests.file("https_negative_bloomfilter_reference.json"), as: UTF8.self)
        #expect(throws: PrefilterError.self) {
            try JSBloomFilter(parsing: Array(text.replacingOccurrences(of: "cjZT", with: "cjZU").utf8))
        }
        #expect(throws: PrefilterError.self) {
            try JSBloomFilter(parsing: Array(text.replacingOccurrences(of: "\"totalEntries\": 3", with: "\"totalEntries\": 30").utf8))
        }
    }
}
