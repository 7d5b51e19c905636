import TrackerDataKit
import TrackerlessCore
import TrackerlessRuntime

/// `trackerless resolve`: how the Tracker Radar resolver classifies each request.
enum ResolveCommand {
    static let help = """
    Usage: trackerless resolve [--tds FILE] [--privacy-config FILE] [--allowlist FILE] [--surrogates DIR|FILE]

    Reads JSON lines {"url", "top", "type", "unblocked"?} on standard input and writes one JSON line
    per request (top: the top page's URL, as in the address bar; "site" before, now refused):
    {"action": "block" | "ignore" | "redirect" | null, "surrogate"?, "reason", "tracker"?, "entity"?,
     "decidedBy"?}
    with the meaning of DuckDuckGo's reference tests (null: not a tracker). decidedBy names the
    input entry that decided, {"kind", ...}: trackerRule and trackerDefault (tds.json: tracker,
    index, rule, action, surrogate, options, exceptions; default), trackerAllowlist and
    requestBlocklist (the privacy configuration's entry key, index, rule, domains), featureNotEnabled,
    unprotectedTemporary and featureException (the configuration entry that turns contentBlocking
    off), userAllowlist (domain), sameEntity (entity), sameSite (registrableDomain), mainFrame.
      --tds FILE              Tracker Radar blocklist (tds.json); without it, the bundled sample
      --privacy-config FILE   DuckDuckGo privacy configuration
      --allowlist FILE        user allowlist: a JSON array of sites where protection is off
      --surrogates DIR|FILE   a directory of <name>.js surrogates or a surrogates.txt file; without
                              it, the bundled surrogates (those `scripts` embeds). A rule's
                              surrogate redirects only if it is there
    type is a Tracker Radar (webRequest) type: script, image, stylesheet, xmlhttprequest,
    subdocument, font, media, websocket, ping, main_frame, other, ...
    unblocked is an array of the Click-to-Load rule actions ("block-ctl-fb") the user allowed on
    that page by clicking a placeholder: rules with those actions do not block. Without a privacy
    configuration every block-ctl-* action blocks; with one, those its clickToLoad feature lists
    for an enabled entity, where the feature is on for the site.
    """

    static func run(_ arguments: [String]) throws -> Int32 {
        let options = try CommandLineArguments(
            arguments, valueOptions: ProtectionInputs.optionNames.union(["surrogates"]))
        if options.has("help") {
            Output.standardOutput(help)
            return 0
        }
        guard options.positionals.isEmpty else { throw UsageError("unexpected argument \"\(options.positionals[0].excerpt())\"") }
        let inputs = try ProtectionInputs(options, surrogates: try ProtectionInputs.surrogates(options)).parsedForCommand()
        let resolver = inputs.resolver()
        for warning in inputs.warnings(configurationFile: options["privacy-config"]) + resolver.warnings {
            Output.standardError("warning: \(warning)")
        }
        return JSONLines.process { line throws(InputError) in
            let url = try line.required("url")
            let top = try line.topURL()
            let type = RequestType(rawValue: try line.required("type"))
            guard let request = CanonicalURL(url) else { throw InputError(invalidURL("url", url)) }
            guard let topURL = CanonicalURL(top) else { throw InputError(invalidURL("top", top)) }
            var unblocked: Set<String> = []
            do throws(JSONDecodingError) {
                unblocked = Set(try line.optionalStringArray("unblocked") ?? [])
            } catch {
                throw InputError("\(error)")
            }
            return resolver.decision(
                forRequestURL: request, topURL: topURL, type: type, userUnblockedRuleActions: unblocked).jsonValue()
        }
    }

    /// `"top": "not a url" is not a valid URL`, the value cut to a readable length.
    static func invalidURL(_ member: String, _ value: String) -> String {
        "\"\(member)\": \(JSONValue.string(value.excerpt()).jsonString()) is not a valid URL"
    }

}
