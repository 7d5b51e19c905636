import ContentRuleList
import TrackerlessCore

/// `trackerless decide`: the actions WebKit applies to each request under a rule list.
enum DecideCommand {
    static let help = """
    Usage: trackerless decide --rules FILE [--rules FILE ...] [--reference]

    Reads JSON lines {"url", "top", "type", "frame"?, "method"?} on standard input and writes one
    JSON line per request: {"blocked": bool, "actions": [{"type": ..., "selector"?: ...}]}.
      --rules FILE   a WebKit rule list (JSON); repeat it to install several lists at once
      --reference    use the reference evaluator (WebKit's semantics, written for clarity)
    type is the resource type WebKit's loader gives the load: top-document, child-document, image,
    style-sheet, script, font, svg-document, media, popup, ping, fetch, websocket, csp-report, other.
    frame is the URL of the frame that makes the request (absent: the main frame); method is the
    document's HTTP method (get when absent), as WebKit compares it.
    """

    static func run(_ arguments: [String]) throws -> Int32 {
        let options = try CommandLineArguments(arguments, valueOptions: ["rules"], flagOptions: ["reference"])
        if options.has("help") {
            Output.standardOutput(help)
            return 0
        }
        guard options.positionals.isEmpty else { throw UsageError("unexpected argument \"\(options.positionals[0])\"") }
        guard let paths = options.repeatedOptions["rules"], !paths.isEmpty else { throw UsageError("decide needs --rules FILE") }
        var lists: [RuleList] = []
        for path in paths {
            let bytes = try FileIO.read(path: path)
            do throws(RuleListError) {
                lists.append(try RuleList(parsing: bytes))
            } catch {
                throw InputError("\(path): \(error)")
            }
        }
        let evaluator = try ReferenceEvaluator(ruleLists: lists)
        return JSONLines.process { line throws(InputError) in
            let request = try Self.request(from: line)
            return Self.json(evaluator.actions(for: request))
        }
    }

    static func request(from line: JSONNode) throws(InputError) -> Request {
        let typeName = try line.requiredString("type")
        guard let type = ResourceType(rawValue: typeName), type != .document, type != .raw else {
            throw InputError("unknown resource type \"\(typeName)\" (a load has one of top-document, child-document, image, style-sheet, script, font, svg-document, media, popup, ping, fetch, websocket, csp-report, other)")
        }
        var method: RequestMethod?
        if let name = try line.optionalString("method") {
            guard let parsed = RequestMethod(rawValue: name.lowercased()) else {
                throw InputError("unknown method \"\(name)\"")
            }
            method = parsed
        }
        return Request(
            url: try line.requiredString("url"),
            topURL: try line.requiredString("top"),
            frameURL: try line.optionalString("frame"),
            resourceType: type,
            method: method)
    }

    static func json(_ applied: AppliedActions) -> JSONValue {
        let actions: [JSONValue] = applied.actions.map { action in
            var object = JSONObject([("type", .string(action.type))])
            switch action {
            case .cssDisplayNone(let selector): object.append("selector", .string(selector))
            case .notify(let notification): object.append("notification", .string(notification))
            default: break
            }
            return .object(object)
        }
        return .object(JSONObject([("blocked", .bool(applied.isBlocked)), ("actions", .array(actions))]))
    }
}
