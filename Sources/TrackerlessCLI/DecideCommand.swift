import ContentRuleList
import RuleEngineKit
import TrackerlessCore

/// `trackerless decide`: the actions WebKit applies to each request under rule lists, decided by
/// the rule engine (or the reference evaluator).
enum DecideCommand {
    static let help = """
    Usage: trackerless decide --rules FILE [--rules FILE ...] [--reference] [--explain]

    Reads JSON lines {"url", "top", "type", "frame"?, "method"?} on standard input and writes one
    JSON line per request: {"blocked": bool, "actions": [{"type": ..., "selector"?: ...,
    "list": n, "rule": n}]}. Each action names the rule that put it there: "list" counts the lists
    of all --rules files in order (a compiled engine holds the lists it was compiled from), "rule"
    is the rule's index in that list's JSON array; of several matched rules that yield the same
    action (WebKit applies it once), the first.
      --rules FILE   a WebKit rule list (JSON) or a compiled engine (trackerless compile); repeat
                     it to install several lists at once
      --reference    decide with the reference evaluator (WebKit's semantics, written for
                     clarity) instead of the rule engine; JSON rule lists only. Both answer alike,
                     so their outputs can be compared with diff.
      --explain      also print, for each action, the list's "file", the rule's JSON ("ruleJSON";
                     JSON lists only) and its "source": the input it was built from, read from
                     LIST.sources.json beside LIST.json when trackerless rules --sources wrote it,
                     or from ENGINE.sources.json beside a compiled engine, which trackerless
                     compile writes from the lists' sources.
    type is the resource type WebKit's loader gives the load: top-document, child-document, image,
    style-sheet, script, font, svg-document, media, popup, ping, fetch, websocket, csp-report, other.
    frame is the URL of the document in the frame that makes the request (absent: the main
    frame), which if-frame-url and unless-frame-url match. A navigation is made by the frame it
    navigates, so for a child-document frame is the iframe's current document, the one it leaves
    (absent: a new iframe's first load, which WebKit matches as about:blank, nested or not), and
    for a top-document the page the view leaves (absent: a new view, matched as the url itself).
    method is the document's HTTP method (get when absent), as WebKit compares it. The requests
    are decided in order, as the loads of the pages they name, with one page cache.
    """

    static func run(_ arguments: [String]) throws -> Int32 {
        let options = try CommandLineArguments(arguments, valueOptions: ["rules"], flagOptions: ["reference", "explain"])
        if options.has("help") {
            Output.standardOutput(help)
            return 0
        }
        guard options.positionals.isEmpty else { throw UsageError("unexpected argument \"\(options.positionals[0].excerpt())\"") }
        guard let paths = options.repeatedOptions["rules"], !paths.isEmpty else { throw UsageError("decide needs --rules FILE") }
        let inputs = try RuleInputs(paths: paths)
        let details = options.has("explain") ? try AppliedRuleDetails(inputs) : nil
        func answer(_ actions: AppliedActions) -> JSONValue {
            details?.jsonValue(actions) ?? actions.jsonValue()
        }
        if options.has("reference") {
            if let compiled = inputs.compiledPaths.first {
                throw UsageError(
                    "--reference needs JSON rule lists, and \(compiled) is a compiled engine; give the lists it was compiled from")
            }
            let evaluator = try inputs.referenceEvaluator()
            return JSONLines.process { line throws(InputError) in
                answer(evaluator.actions(for: try Self.request(from: line)))
            }
        }
        let engines = try inputs.engines().engines
        var cache = engines.makePageCache()
        return JSONLines.process { line throws(InputError) in
            answer(engines.actions(for: try Self.request(from: line), cache: &cache))
        }
    }

    static func request(from line: JSONStringMembers) throws(InputError) -> Request {
        let typeName = try line.required("type")
        guard let type = ResourceType(rawValue: typeName), type != .document, type != .raw else {
            throw InputError("unknown resource type \"\(typeName.excerpt())\" (a load has one of top-document, child-document, image, style-sheet, script, font, svg-document, media, popup, ping, fetch, websocket, csp-report, other)")
        }
        var method: RequestMethod?
        if let name = try line.optional("method") {
            guard let parsed = RequestMethod(rawValue: name.lowercased()) else {
                throw InputError("unknown method \"\(name.excerpt())\"")
            }
            method = parsed
        }
        return Request(
            url: try line.required("url"),
            topURL: try line.required("top"),
            frameURL: try line.optional("frame"),
            resourceType: type,
            method: method)
    }

}
