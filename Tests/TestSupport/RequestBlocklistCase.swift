public import Testing
public import TrackerDataKit
import TrackerlessCore

/// One case of `request-blocklist/tests.json` (41 cases), to run with ``RequestBlocklistFixture``.
public struct RequestBlocklistCase: Sendable, CustomTestStringConvertible {
    /// The test set's key in the file.
    public var set: String
    /// The case's name in the file.
    public var name: String
    /// The top-level page.
    public var websiteURL: String
    /// The request made by the page.
    public var requestURL: String
    /// The Tracker Radar request type (`script`, `image`, `main_frame`, …).
    public var requestType: String
    /// `block` or `allow`.
    public var expectAction: String

    /// `set: name`, so that a failing case is reported by name.
    public var testDescription: String { "\(set): \(name)" }

    /// The request type as ``RequestType``.
    public var type: RequestType { RequestType(rawValue: requestType) }

    /// Whether the request must not load.
    public var expectsBlocked: Bool { expectAction == "block" }

    /// Every case in file order; empty when the file is missing.
    public static let all: [RequestBlocklistCase] = {
        guard let root = SharedData.json("\(SharedData.requestBlocklist)/tests.json"),
            let sets = try? root.members()
        else { return [] }
        var cases: [RequestBlocklistCase] = []
        for (setKey, set) in sets {
            guard let tests = try? set.required("tests").array() else { continue }
            for test in tests {
                cases.append(RequestBlocklistCase(
                    set: setKey,
                    name: (try? test.required("name").string()) ?? "?",
                    websiteURL: (try? test.required("websiteUrl").string()) ?? "",
                    requestURL: (try? test.required("requestUrl").string()) ?? "",
                    requestType: (try? test.required("requestType").string()) ?? "",
                    expectAction: (try? test.required("expectAction").string()) ?? ""))
            }
        }
        return cases
    }()
}
