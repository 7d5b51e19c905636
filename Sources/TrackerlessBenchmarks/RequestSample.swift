import ContentRuleList
import TrackerDataKit
import TrackerlessCore

/// One of adblock-rust's labelled requests (`matching-test-requests.json`): a URL and the type of
/// load, in the words of both the resolver and WebKit.
struct RequestSample: Sendable {
    /// The request URL.
    let url: String
    /// The URL of the page that made the request (`sourceUrl`; often just a scheme, `https://`).
    let sourceURL: String
    /// The type as the Tracker Radar resolver names it (webRequest types).
    let requestType: RequestType
    /// The type as WebKit's content blockers name it.
    let resourceType: ResourceType

    /// adblock-rust's type names: `xhr` is webRequest's `xmlhttprequest`; `fetch` is the same load.
    private static let types: [String: (RequestType, ResourceType)] = [
        "script": (.script, .script), "image": (.image, .image), "stylesheet": (.stylesheet, .styleSheet),
        "xhr": (.xmlhttprequest, .fetch), "fetch": (.xmlhttprequest, .fetch),
        "subdocument": (.subdocument, .childDocument), "media": (.media, .media), "font": (.font, .font),
    ]

    /// The requests in the file: a JSON array of `{"url", "type", ...}`; other fields are ignored.
    static func samples(parsing bytes: [UInt8], file: String) throws(BenchmarkError) -> [RequestSample] {
        do throws(JSONReadError) {
            return try JSONReader.read(bytes) { (reader) throws(JSONReadError) -> [RequestSample] in
                var samples: [RequestSample] = []
                var elements = try reader.enterArray(at: .root)
                while try reader.nextElement(in: &elements) {
                    let item = try reader.readStringMembers(["url", "type", "sourceUrl"], at: JSONPath.root.appending(index: samples.count))
                    do throws(JSONDecodingError) {
                        let url = try item.requiredString("url")
                        let type = try item.requiredString("type")
                        let sourceURL = try item.string("sourceUrl") ?? ""
                        let (requestType, resourceType) = types[type] ?? (.other, .other)
                        samples.append(RequestSample(url: url, sourceURL: sourceURL, requestType: requestType, resourceType: resourceType))
                    } catch {
                        throw .invalidValue(error)
                    }
                }
                return samples
            }
        } catch {
            throw .invalidInput(path: file, detail: "\(error)")
        }
    }
}
