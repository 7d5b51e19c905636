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
    static let topKeys: [StaticString] = ["top", "topURL", "sourceUrl"]

    /// The members a request is read from.
    static let keys: [StaticString] = ["url", "type", "frame", "method"] + topKeys

    /// Every request of the file, in file order.
    ///
    /// - Throws: ``InputError`` naming the file and the element (`[3].type`) or line
    ///   (`line 4, column 2`) of the first problem.
    static func requests(parsing bytes: [UInt8], file: String, defaultTopURL: String = defaultTopURL) throws(InputError) -> [Request] {
        let firstByte = bytes.first { !($0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D) }
        guard let firstByte else { throw InputError("\(file): no requests (the file is empty)") }
        var requests: [Request] = []
        if firstByte == UInt8(ascii: "[") {
            do throws(JSONReadError) {
                requests = try JSONReader.read(bytes) { (reader) throws(JSONReadError) -> [Request] in
                    var requests: [Request] = []
                    var elements = try reader.enterArray(at: .root)
                    while try reader.nextElement(in: &elements) {
                        let members = try reader.readStringMembers(keys, at: JSONPath.root.appending(index: requests.count))
                        do throws(JSONDecodingError) {
                            requests.append(try request(from: members, defaultTopURL: defaultTopURL))
                        } catch {
                            throw .invalidValue(error)
                        }
                    }
                    return requests
                }
            } catch {
                throw InputError("\(file): \(description(of: error))")
            }
        } else {
            var lineNumber = 0
            for line in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
                lineNumber += 1
                if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { continue }
                do throws(JSONReadError) {
                    requests.append(try request(parsingLine: Array(line), defaultTopURL: defaultTopURL))
                } catch {
                    switch error {
                    case .syntax(let error):
                        throw InputError("\(file): line \(lineNumber), column \(error.column): \(error.reason)")
                    case .invalidValue(let error):
                        let place = error.path == .root ? "" : "\(error.path): "
                        throw InputError("\(file): line \(lineNumber): \(place)\(error.reason)")
                    case .rejected(let error):
                        throw InputError("\(file): line \(lineNumber): \(error)")
                    }
                }
            }
        }
        guard !requests.isEmpty else { throw InputError("\(file): no requests (an empty array)") }
        return requests
    }

    /// The request of one JSON line (an object).
    static func request(parsingLine line: [UInt8], defaultTopURL: String = defaultTopURL) throws(JSONReadError) -> Request {
        try JSONReader.read(line) { (reader) throws(JSONReadError) -> Request in
            let members = try reader.readStringMembers(keys, at: .root)
            do throws(JSONDecodingError) {
                return try request(from: members, defaultTopURL: defaultTopURL)
            } catch {
                throw .invalidValue(error)
            }
        }
    }

    /// One request; errors carry the JSON path of the offending member.
    static func request(from item: JSONStringMembers, defaultTopURL: String) throws(JSONDecodingError) -> Request {
        let url = try item.requiredString("url")
        let typeName = try item.requiredString("type")
        let type: ResourceType
        if let webKitType = ResourceType(rawValue: typeName), webKitType != .document, webKitType != .raw {
            type = webKitType
        } else if let alias = typeAliases[typeName] {
            type = alias
        } else {
            throw JSONDecodingError(
                path: item.path(of: "type"),
                reason: "unknown resource type \"\(typeName.excerpt())\" (a load has one of top-document, child-document, image, "
                    + "style-sheet, script, font, svg-document, media, popup, ping, fetch, websocket, csp-report, other; "
                    + "or adblock-rust's xhr, stylesheet, subdocument)")
        }
        var topURL = defaultTopURL
        for key in topKeys {
            guard let candidate = try item.optionalString(key) else { continue }
            if let canonical = CanonicalURL(candidate), !canonical.host.isEmpty { topURL = candidate }
            break
        }
        let frameURL = try item.optionalString("frame")
        var method: RequestMethod?
        if let name = try item.optionalString("method") {
            guard let parsed = RequestMethod(name: name) else {
                throw JSONDecodingError(path: item.path(of: "method"), reason: "unknown method \"\(name.excerpt())\"")
            }
            method = parsed
        }
        return Request(url: url, topURL: topURL, frameURL: frameURL, resourceType: type, method: method)
    }

    private static func description(of error: JSONReadError) -> String {
        switch error {
        case .syntax(let error): "\(error)"
        case .invalidValue(let error): "\(error)"
        case .rejected(let error): "\(error)"
        }
    }
}
