public import Testing
public import TrackerDataKit
import TrackerlessCore

/// One of adblock-rust's 8,276 labelled requests (`requests/matching-test-requests.json`):
/// real tracker and non-tracker URLs with their load type.
public struct MatchingTestRequest: Sendable, Hashable, CustomTestStringConvertible {
    /// The request URL.
    public var url: String
    /// The page that made it in adblock-rust's data; often a placeholder such as `http://`.
    public var sourceURL: String
    /// The file's type: `script`, `image`, `xhr`, `fetch`, `subdocument`, `stylesheet`,
    /// `other`, `media` or `font`.
    public var rawType: String

    /// `type url`.
    public var testDescription: String { "\(rawType) \(url)" }

    /// The Tracker Radar request type: `xhr` and `fetch` are both `xmlhttprequest` (WebKit's
    /// `fetch`), the others keep their names.
    public var type: RequestType {
        switch rawType {
        case "xhr", "fetch", "xmlhttprequest": .xmlhttprequest
        default: RequestType(rawValue: rawType)
        }
    }

    /// Every request in file order; empty when the file is missing.
    public static let all: [MatchingTestRequest] = {
        guard let root = SharedData.json(SharedData.matchingTestRequests), let items = try? root.array() else {
            return []
        }
        return items.compactMap { item in
            guard let url = try? item.required("url").string(), let type = try? item.required("type").string() else {
                return nil
            }
            return MatchingTestRequest(url: url, sourceURL: (try? item["sourceUrl"]?.string()) ?? "", rawType: type)
        }
    }()
}
