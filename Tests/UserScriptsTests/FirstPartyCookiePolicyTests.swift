import Foundation
import Testing
import TrackerDataKit
import TrackerlessCore
import TrackerlessTestSupport
import UserScripts

/// The cap on tracker scripts' first-party cookies through the Swift API: every case of the
/// expire-first-party-js-cookies suite, then the cookie text itself (RFC 6265 dates, Max-Age
/// over Expires, the attributes kept).
@Suite("FirstPartyCookiePolicy")
struct FirstPartyCookiePolicyTests {
    static let folder = "privacy-reference-tests/expire-first-party-js-cookies"

    static func policy(configuration: PrivacyConfiguration? = nil, userAllowlist: UserAllowlist = UserAllowlist()) throws
        -> FirstPartyCookiePolicy
    {
        FirstPartyCookiePolicy(
            configuration: try configuration ?? PrivacyConfiguration(contentsOfFile: SharedData.path("\(folder)/config_reference.json")),
            trackerData: try TrackerData(contentsOfFile: SharedData.path("\(folder)/tracker_radar_reference.json")),
            userAllowlist: userAllowlist)
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var name, topURL, scriptURL, cookie: String
        var expectSet: Bool
        var expectedLifetime: Double?
        var testDescription: String { name }
    }

    static var cases: [Case] {
        guard let root = SharedData.json("\(folder)/tests.json") else { return [] }
        var cases: [Case] = []
        for (_, set) in (try? root.members()) ?? [] {
            for test in (try? set.required("tests").array()) ?? [] {
                guard let name = try? test.required("name").string(), let site = try? test.required("siteURL").string(),
                    let script = try? test.required("scriptURL").string(), let cookie = try? test.required("setDocumentCookie").string(),
                    let expectSet = try? test.required("expectCookieSet").bool()
                else { continue }
                let expiry = try? test.required("expectExpiryToBe").double()
                cases.append(Case(
                    name: name, topURL: site, scriptURL: script, cookie: cookie, expectSet: expectSet,
                    expectedLifetime: expiry == -1 ? nil : expiry))
            }
        }
        return cases
    }

    @Test("the suite has its 10 cases", .enabled(if: SharedData.shouldRun, SharedData.skipMessage))
    func suiteSize() { #expect(Self.cases.count == 10) }

    @Test("every case of the suite", .enabled(if: SharedData.shouldRun, SharedData.skipMessage), arguments: cases)
    func referenceCase(_ test: Case) throws {
        let now = Date().timeIntervalSince1970
        let written = try Self.policy().documentCookie(test.cookie, scriptURL: test.scriptURL, topURL: test.topURL, now: now)
        let lifetime = DocumentCookie(written).lifetime(now: now)
        if !test.expectSet {
            #expect((lifetime ?? 1) <= 0, "\(written)")
        } else if let expected = test.expectedLifetime {
            #expect(lifetime == expected, "\(written)")
        } else {
            #expect(lifetime == nil, "\(written)")
        }
    }

    @Test("a tracker behind a CNAME is capped; the page's own script, excluded domains and allowlisted sites are not",
          .enabled(if: SharedData.shouldRun, SharedData.skipMessage))
    func scriptsAndSites() throws {
        let policy = try Self.policy()
        #expect(policy.settings == FirstPartyCookiePolicy.Settings(threshold: 604_800, maxAge: 86_400, excludedCookieDomains: ["excluded-cookie-domain.com"]))
        #expect(policy.caps(scriptURL: "https://tracker.cname.com/t.js", topURL: "https://example.com/"))
        #expect(!policy.caps(scriptURL: "https://example.com/app.js", topURL: "https://example.com/"))
        #expect(policy.caps(scriptURL: "https://cdn.tracker.com/t.js", topURL: "https://www.example.com/"))
        #expect(!policy.caps(scriptURL: "https://tracker.com/t.js", topURL: "https://sub.local-exception.test/"))
        let allowlisted = try Self.policy(userAllowlist: UserAllowlist(domains: ["example.com"]))
        #expect(!allowlisted.caps(scriptURL: "https://tracker.com/t.js", topURL: "https://example.com/"))
        #expect(!allowlisted.caps(scriptURL: "https://tracker.com/t.js", topURL: "https://www.example.com/"))   // www. is the same domain

        var configuration = try PrivacyConfiguration(contentsOfFile: SharedData.path("\(Self.folder)/config_reference.json"))
        configuration.features["cookie"]?.settingsText = JSONText(.object(JSONObject([
            ("firstPartyCookiePolicy", .object(JSONObject([("threshold", .number(10)), ("maxAge", .number(5))]))),
            ("excludedCookieDomains", .array([.object(JSONObject([("domain", .string("Tracker.com"))]))])),
        ])))
        let excluding = try Self.policy(configuration: configuration)
        #expect(!excluding.caps(scriptURL: "https://cdn.tracker.com/t.js", topURL: "https://example.com/"))
        #expect(excluding.documentCookie("a=1; Max-Age=11", scriptURL: "https://unblockable-tracker.net/t.js", topURL: "https://example.com/", now: 0)
            == "a=1; Max-Age=5")
        configuration.features["cookie"]?.state = .disabled
        #expect(try Self.policy(configuration: configuration).settings == nil)
    }

    @Test("cookie dates as RFC 6265 reads them")
    func dates() {
        #expect(DocumentCookie.date("Wed, 21 Aug 2030 20:00:00 UTC") == 1_913_572_800)
        #expect(DocumentCookie.date("Thu, 01-Jan-1970 00:00:01 GMT") == 1)
        #expect(DocumentCookie.date("Sun Nov  6 08:49:37 1994") == 784_111_777)
        #expect(DocumentCookie.date("6 nov 94 8:49:37") == 784_111_777)
        #expect(DocumentCookie.date("Feb 29 2023 00:00:00") == nil)
        #expect(DocumentCookie.date("Wed, 21 Aug 1600 20:00:00 UTC") == nil)
        #expect(DocumentCookie.date("tomorrow") == nil)
    }

    @Test("Max-Age wins over Expires, the last usable one counts; the rewrite keeps every other attribute")
    func lifetimes() {
        #expect(DocumentCookie("a=1; Expires=Thu, 01 Jan 1970 00:16:40 GMT; Max-Age=20").lifetime(now: 0) == 20)
        #expect(DocumentCookie("a=1; max-age=20; MAX-AGE=x").lifetime(now: 0) == 20)
        #expect(DocumentCookie("a=1; Max-Age=-5").lifetime(now: 0) == 0)
        #expect(DocumentCookie("a=1; expires=Thu, 01 Jan 1970 00:16:40 GMT").lifetime(now: 400) == 600)
        #expect(DocumentCookie("a=1; Path=/").lifetime(now: 0) == nil)
        #expect(DocumentCookie("a=1; Expires=soon; Path=/; Max-Age=9;Secure").withMaxAge(60) == "a=1; Path=/;Secure; Max-Age=60")
    }
}
