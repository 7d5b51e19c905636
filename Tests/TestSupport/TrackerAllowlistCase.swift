public import Testing
import TrackerlessCore

/// One case of `TR-domain-matching/tracker_allowlist_matching_tests.json` (25 cases), to run
/// with ``TrackerAllowlistFixture``. Every request is to a default-block tracker.
public struct TrackerAllowlistCase: Sendable, CustomTestStringConvertible {
    /// The case's description in the file.
    public var description: String
    /// The top-level page.
    public var site: String
    /// The request made by the page.
    public var request: String
    /// Whether the tracker allowlist covers the request on that site.
    public var isAllowlisted: Bool

    /// The description, so that a failing case is reported by name.
    public var testDescription: String { description }

    /// Every case in file order; empty when the file is missing.
    public static let all: [TrackerAllowlistCase] = {
        guard let root = SharedData.json("\(SharedData.domainMatching)/tracker_allowlist_matching_tests.json"),
            let tests = try? root.array()
        else { return [] }
        return tests.map { test in
            TrackerAllowlistCase(
                description: (try? test.required("description").string()) ?? "?",
                site: (try? test.required("site").string()) ?? "",
                request: (try? test.required("request").string()) ?? "",
                isAllowlisted: (try? test.required("isAllowlisted").bool()) ?? false)
        }
    }()
}
