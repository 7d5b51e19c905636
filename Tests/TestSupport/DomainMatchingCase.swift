public import Testing
public import TrackerDataKit
import TrackerlessCore

/// One case of `TR-domain-matching/domain_matching_tests.json`: 122 domain tests and 12
/// surrogate tests, to run with ``DomainMatchingFixture`` (no privacy configuration).
/// `exceptPlatforms` is ignored: every case must pass.
public struct DomainMatchingCase: Sendable, CustomTestStringConvertible {
    /// The test set: `domainTests` or `surrogateTests`.
    public var set: String
    /// The case's name in the file.
    public var name: String
    /// The top-level page.
    public var topURL: String
    /// The request made by the page.
    public var requestURL: String
    /// The Tracker Radar request type (`script`, `image`, `main_frame`, …).
    public var requestType: String
    /// `block`, `ignore`, `redirect`, or nil when the request is no tracker.
    public var expectAction: String?
    /// For `redirect`, the surrogate's `data:` URL.
    public var expectRedirect: String?

    /// `set: name`, so that a failing case is reported by name.
    public var testDescription: String { "\(set): \(name)" }

    /// The request type as ``RequestType``.
    public var type: RequestType { RequestType(rawValue: requestType) }

    /// Whether the request must not load (`block` or `redirect`).
    public var expectsBlocked: Bool { expectAction == "block" || expectAction == "redirect" }

    /// Every case in file order; empty when the file is missing.
    public static let all: [DomainMatchingCase] = {
        guard let root = SharedData.json("\(SharedData.domainMatching)/domain_matching_tests.json"),
            let sets = try? root.members()
        else { return [] }
        var cases: [DomainMatchingCase] = []
        for (setKey, set) in sets {
            guard let tests = try? set.required("tests").array() else { continue }
            for test in tests {
                cases.append(DomainMatchingCase(
                    set: setKey,
                    name: (try? test.required("name").string()) ?? "?",
                    topURL: (try? test.required("siteURL").string()) ?? "",
                    requestURL: (try? test.required("requestURL").string()) ?? "",
                    requestType: (try? test.required("requestType").string()) ?? "",
                    expectAction: try? test["expectAction"]?.string(),
                    expectRedirect: try? test["expectRedirect"]?.string()))
            }
        }
        return cases
    }()
}
