import ContentRuleList
import TrackerlessCore

/// The requests `bench` decides, read from a file: a JSON array of objects or JSON lines (one
/// object a line), each `{"url", "top", "type", "frame"?, "method"?}`.
///
/// It also reads adblock-rust's `matching-test-requests.json` (`sourceUrl` for the page, its type
/// names `xhr`, `stylesheet`, `subdocument`) and webRequest's type names. A page URL without a
/// host (adblock-rust's placeholders `http://` and `https://`, `about:blank`) or missing is
/// replaced by a default page, so that every load has a page to be first- or third-party to.
enum RequestFile {
    /// The page of requests that name none.
    static let defaultTopURL = "https://www.example.com/"

    /// Type names other than WebKit's, as adblock-rust and webRequest write them.
    static let typeAliases: [String: ResourceType] = [
        "stylesheet": .styleSheet, "xhr": .fetch, "xmlhttprequest": .fetch, "subdocument": .childDocument,
        "sub_frame": .childDocument, "main_frame": .topDocument, "csp_report": .cspReport, "beacon": .other,
        "object": .other,
    ]

    /// The page URL's keys, in order of preference: ours, then adblock-rust's.
    static let topKeys = ["top", "topURL", "sourceUrl"]

    /// Every request of the file, in file order.
    ///
    /// - Throws: ``InputError`` naming the file and the element (`[3].type`) or line
    ///   (`line 4, column 2`) of the first problem.
    static func requests(parsing bytes: [UInt8], file: String, defaultTopURL: String = defaultTopURL) throws(InputError) -> [Request] {
        let firstByte = bytes.first { !($0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D) }
        guard let firstByte else { throw InputError("\(file): no requests (the file is empty)") }
        var requests: [Request] = []
        if firstByte == UInt8(ascii: "[") {
            let root: JSONValue
            do throws(JSONSyntaxError) {
                root = try JSONParser.parse(bytes)
            } catch {
                throw InputError("\(file): \(error)")
            }
            do throws(JSONDecodingError) {
                for item in try JSONNode(root).array() {
                    requests.append(try request(from: item, defaultTopURL: defaultTopURL))
                }
            } catch {
                throw InputError("\(file): \(error)")
            }
        } else {
            var lineNumber = 0
            for line in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
                lineNumber += 1
                if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { continue }
                let value: JSONValue
                do throws(JSONSyntaxError) {
                    value = try JSONParser.parse(Array(line))
                } catch {
                    throw InputError("\(file): line \(lineNumber), column \(error.column): \(error.reason)")
                }
                do throws(JSONDecodingError) {
                    requests.append(try request(from: JSONNode(value), defaultTopURL: defaultTopURL))
                } catch {
                    let place = error.path == .root ? "" : "\(error.path): "
                    throw InputError("\(file): line \(lineNumber): \(place)\(error.reason)")
                }
            }
        }
        guard !requests.isEmpty else { throw InputError("\(file): no requests (an empty array)") }
        return requests
    }

    /// One request; errors carry the JSON path of the offending member.
    static func request(from item: JSONNode, defaultTopURL: String) throws(JSONDecodingError) -> Request {
        let url = try item.required("url").string()
        let typeNode = try item.required("type")
        let typeName = try typeNode.string()
        let type: ResourceType
        if let webKitType = ResourceType(rawValue: typeName), webKitType != .document, webKitType != .raw {
            type = webKitType
        } else if let alias = typeAliases[typeName] {
            type = alias
        } else {
            throw JSONDecodingError(
                path: typeNode.path,
                reason: "unknown resource type \"\(typeName.excerpt())\" (a load has one of top-document, child-document, image, "
                    + "style-sheet, script, font, svg-document, media, popup, ping, fetch, websocket, csp-report, other; "
                    + "or adblock-rust's xhr, stylesheet, subdocument)")
        }
        var topURL = defaultTopURL
        for key in topKeys {
            guard let node = item[key], !node.isNull else { continue }
            let candidate = try node.string()
            if let canonical = CanonicalURL(candidate), !canonical.host.isEmpty { topURL = candidate }
            break
        }
        var frameURL: String?
        if let node = item["frame"], !node.isNull { frameURL = try node.string() }
        var method: RequestMethod?
        if let node = item["method"], !node.isNull {
            let name = try node.string()
            guard let parsed = RequestMethod(name: name) else {
                throw JSONDecodingError(path: node.path, reason: "unknown method \"\(name.excerpt())\"")
            }
            method = parsed
        }
        return Request(url: url, topURL: topURL, frameURL: frameURL, resourceType: type, method: method)
    }
}
