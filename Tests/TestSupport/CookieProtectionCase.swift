public import Testing
public import TrackerDataKit
import TrackerlessCore

/// One case of `block-third-party-tracking-cookies/tests.json` (28 cases: cookieHeader 10,
/// setCookieHeader 10, cookieAPI 8): whether a request's `Cookie` headers, a response's
/// `Set-Cookie` headers, or a frame's `document.cookie` survive third-party tracking-cookie
/// protection, under the folder's configuration and blocklist.
public struct CookieProtectionCase: Sendable, CustomTestStringConvertible {
    /// One HTTP header of a case.
    public struct Header: Sendable, Hashable {
        /// The name as written, for example `Set-Cookie`.
        public var name: String
        /// The value.
        public var value: String
    }

    /// What the case checks.
    public enum Expectation: Sendable, Hashable {
        /// Whether every `Cookie` header of ``CookieProtectionCase/requestHeaders`` is removed.
        case cookieHeadersRemoved(Bool)
        /// Whether every `Set-Cookie` header of ``CookieProtectionCase/responseHeaders`` is removed.
        case setCookieHeadersRemoved(Bool)
        /// Whether assigning `value` to `document.cookie` in the frame stores it.
        case documentCookieSet(Bool, value: String)
    }

    /// The test set's key in the file: `cookieHeader`, `setCookieHeader` or `cookieAPI`.
    public var set: String
    /// The case's name in the file.
    public var name: String
    /// The top-level page.
    public var topURL: String
    /// The frame the case is about, for `document.cookie` cases.
    public var frameURL: String?
    /// The request, for header cases.
    public var requestURL: String?
    /// The request's headers (for `Cookie` cases).
    public var requestHeaders: [Header]
    /// The response's headers (for `Set-Cookie` cases).
    public var responseHeaders: [Header]
    /// What must happen; nil when the case has no known expectation field (the suite-size check
    /// then fails).
    public var expectation: Expectation?
    /// Platforms that skip the case, such as `web-extension` (no CNAME lookup there).
    public var exceptPlatforms: [String]

    /// `set: name`, so that a failing case is reported by name.
    public var testDescription: String { "\(set): \(name)" }

    /// The folder of the suite.
    public static let folder = "privacy-reference-tests/block-third-party-tracking-cookies"
    /// The absolute path of the suite's blocklist.
    public static var trackerDataPath: String { SharedData.path("\(folder)/tracker_radar_reference.json") }
    /// The absolute path of the suite's privacy configuration.
    public static var configurationPath: String { SharedData.path("\(folder)/config_reference.json") }

    /// The suite's blocklist and configuration.
    public static func loadFixture() throws(TrackerDataError) -> (trackerData: TrackerData, configuration: PrivacyConfiguration) {
        (try TrackerData(contentsOfFile: trackerDataPath), try PrivacyConfiguration(contentsOfFile: configurationPath))
    }

    /// Every case in file order; empty when the file is missing.
    public static let all: [CookieProtectionCase] = {
        guard let root = SharedData.json("\(folder)/tests.json"), let sets = try? root.members() else { return [] }
        var cases: [CookieProtectionCase] = []
        for (setKey, set) in sets {
            guard let tests = try? set.required("tests").array() else { continue }
            for test in tests {
                let expectation: Expectation?
                if let removed = try? test["expectCookieHeadersRemoved"]?.bool() {
                    expectation = .cookieHeadersRemoved(removed)
                } else if let removed = try? test["expectSetCookieHeadersRemoved"]?.bool() {
                    expectation = .setCookieHeadersRemoved(removed)
                } else if let stored = try? test["expectDocumentCookieSet"]?.bool() {
                    expectation = .documentCookieSet(stored, value: (try? test["setDocumentCookie"]?.string()) ?? "")
                } else {
                    expectation = nil
                }
                cases.append(CookieProtectionCase(
                    set: setKey,
                    name: (try? test.required("name").string()) ?? "?",
                    topURL: (try? test.required("siteURL").string()) ?? "",
                    frameURL: try? test["frameURL"]?.string(),
                    requestURL: try? test["requestURL"]?.string(),
                    requestHeaders: headers(test["requestHeaders"]),
                    responseHeaders: headers(test["responseHeaders"]),
                    expectation: expectation,
                    exceptPlatforms: (try? test["exceptPlatforms"]?.stringArray()) ?? []))
            }
        }
        return cases
    }()

    private static func headers(_ node: JSONNode?) -> [Header] {
        guard let elements = try? node?.array() else { return [] }
        return elements.compactMap { element in
            guard let name = try? element.required("name").string(), let value = try? element.required("value").string()
            else { return nil }
            return Header(name: name, value: value)
        }
    }
}
