import Testing
import TrackerlessCore

@Suite("DomainName")
struct DomainNameTests {
    @Test("a toggle's domain is the host without one leading www., as DuckDuckGo's protections toggle")
    func toggleDomain() {
        #expect(DomainName.toggleDomain("www.example.com") == "example.com")
        #expect(DomainName.toggleDomain("WWW.Example.COM.") == "example.com")
        #expect(DomainName.toggleDomain("example.com") == "example.com")
        #expect(DomainName.toggleDomain("shop.example.com") == "shop.example.com")
        #expect(DomainName.toggleDomain("www.www.example.com") == "www.example.com")
        #expect(DomainName.toggleDomain("wwwexample.com") == "wwwexample.com")
        #expect(DomainName.toggleDomain("www.") == "www")
        #expect(DomainName.toggleHosts("example.com") == ["example.com", "www.example.com"])
    }

    @Test("a host is within a domain on label boundaries only")
    func labelBoundaries() {
        #expect(DomainName.host("example.com", isWithin: "example.com"))
        #expect(DomainName.host("a.b.example.com", isWithin: "example.com"))
        #expect(!DomainName.host("badexample.com", isWithin: "example.com"))
        #expect(!DomainName.host("example.com", isWithin: "a.example.com"))
        #expect(!DomainName.host("example.com.evil", isWithin: "example.com"))
        #expect(DomainName.host("a.example.com", isWithin: "com"))
    }

    /// The copies this replaces differed here: RuleBuilder's `SiteDomain.isDomain`, the
    /// allowlists, the first-party cookie policy and the GPC header's sites compared bytes
    /// exactly; the tds lookups ignored ASCII case. Case is ignored everywhere now.
    @Test("ASCII case is ignored on both sides")
    func caseIgnored() {
        #expect(DomainName.host("CDN.Example.COM", isWithin: "example.com"))
        #expect(DomainName.host("cdn.example.com", isWithin: "EXAMPLE.com"))
        #expect(!DomainName.host("CDN.BADEXAMPLE.COM", isWithin: "example.com"))
    }

    /// `SiteDomain.isDomain("a.", within: "")` answered true, `ProtectionScope` matched the empty
    /// host: an empty domain (a configuration's `"domain": ""`) contains no host now.
    @Test("an empty domain contains nothing")
    func emptyDomain() {
        #expect(!DomainName.host("a.", isWithin: ""))
        #expect(!DomainName.host("", isWithin: ""))
        #expect(!DomainName.host("example.com", isWithin: ""))
    }

    @Test("a final dot is a character: normalize first")
    func finalDot() {
        #expect(!DomainName.host("a.example.com.", isWithin: "example.com"))
        #expect(DomainName.host(DomainName.normalized("a.example.com."), isWithin: DomainName.normalized("Example.com.")))
    }

    @Test("non-ASCII bytes are compared as they are")
    func nonASCII() {
        #expect(DomainName.host("a.bücher.example", isWithin: "bücher.example"))
        #expect(!DomainName.host("a.BÜCHER.example", isWithin: "bücher.example"))
    }

    @Test("the normal form: lowercase ASCII, Punycode, no final dot")
    func normalForm() {
        #expect(DomainName.normalized("example.com") == "example.com")
        #expect(DomainName.normalized("Example.COM") == "example.com")
        #expect(DomainName.normalized("example.com.") == "example.com")
        #expect(DomainName.normalized("Bücher.Example.") == "xn--bcher-kva.example")
        #expect(DomainName.normalized("") == "")
        #expect(DomainName.normalized(".") == "")
        #expect(DomainName.normalized("ab..") == "ab")
        // Idempotent (the user allowlist fuzzer found "ab.." listed as "ab." and then not contained).
        for name in ["Example.COM.", "Bücher.Example.", "a_b-c.example", "ab..", "..", "Bücher..", "x.\u{00DF}.."] {
            #expect(DomainName.normalized(DomainName.normalized(name)) == DomainName.normalized(name))
        }
    }

    /// `ProtectionScope` lowercased the site with `String.lowercased()` and kept non-ASCII
    /// letters: a configuration's `bücher.example` never matched the Punycode host a URL gives.
    @Test("an IDN from a configuration matches the Punycode host of a URL")
    func internationalized() {
        let host = CanonicalURL("https://shop.Bücher.example/")?.host ?? ""
        #expect(host == "shop.xn--bcher-kva.example")
        #expect(DomainName.host(host, isWithin: DomainName.normalized("bücher.example")))
        #expect(!DomainName.host(host, isWithin: "bücher.example"))
    }

    @Test("parent domains, nearest first, down to the last label")
    func parents() {
        #expect(DomainName.parentDomains(of: "a.b.example") == ["b.example", "example"])
        #expect(DomainName.parentDomains(of: "example") == [])
        #expect(DomainName.parentDomains(of: "a.b.") == ["b."])
        #expect(DomainName.firstParentDomain(of: "a.b.example") { $0 == "example" } == "example")
        #expect(DomainName.firstParentDomain(of: "a.b.example") { $0.hasPrefix("a") } == nil)
    }

    @Test("the Tracker Radar suffix walk: the host, then parents that still have a dot")
    func suffixWalk() {
        var asked: [String] = []
        let found: String? = DomainName.firstSuffix(of: "a.b.example.com") { name in
            asked.append(name)
            return nil
        }
        #expect(found == nil)
        #expect(asked == ["a.b.example.com", "b.example.com", "example.com"])
        #expect(DomainName.firstSuffix(of: "x.tracker.example") { $0 == "tracker.example" ? $0 : nil } == "tracker.example")
        // A non-ASCII host walks its characters the same way.
        asked = []
        _ = DomainName.firstSuffix(of: "ü.b.example") { name -> String? in
            asked.append(name)
            return nil
        }
        #expect(asked == ["ü.b.example", "b.example"])
    }

    @Test("ASCII lowercasing touches A…Z only")
    func asciiLowercased() {
        for byte in UInt8.min...UInt8.max {
            let expected = (0x41...0x5A).contains(byte) ? byte + 0x20 : byte
            #expect(ASCII.lowercased(byte) == expected, "byte \(byte)")
        }
    }
}
