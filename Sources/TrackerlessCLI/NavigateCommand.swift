import Foundation
import NavigationProtections
import TrackerDataKit
import TrackerlessCore
import TrackerlessRuntime

/// `trackerless navigate`: the navigation decision of the privacy configuration's protections
/// (AMP links, tracking parameters, HTTPS upgrade, GPC, referrer trimming) for each navigation.
enum NavigateCommand {
    static let help = """
    Usage: trackerless navigate --privacy-config FILE [--tds FILE] [--allowlist FILE]
                                [--https-filter DIR] [--gpc on|off] [--gpc-header enabled-sites|every-request]

    Reads JSON lines {"url", "initiator"?, "referrer"?, "top"?} on standard input and writes one
    JSON line per navigation: {"url": the URL to load (the same when nothing applies),
    "ampDetected": bool, "headers": {"Sec-GPC"?, "Referer"?}, "reasons": [...]}.
    The URL is resolved from an AMP cache link (ampLinks), stripped of tracking parameters
    (trackingParameters), then upgraded to https (with --https-filter); Sec-GPC is set (gpc) and
    Referer trimmed to its origin when it would cross to another owner (referrer). initiator is the
    page that started the navigation; referrer the Referer the browser would send; top, for a
    frame's navigation, the top page's URL ("frame" before; as in decide, "frame" now names only
    a requesting frame, which navigate refuses). "ampDetected": the URL still looks like an AMP page by
    the configuration's keywords. Each protection follows its feature's state and exceptions,
    unprotectedTemporary and the user allowlist.
      --privacy-config FILE   DuckDuckGo privacy configuration (the protections' settings)
      --tds FILE              Tracker Radar blocklist: owners and trackers for referrer trimming;
                              without it, the bundled sample
      --allowlist FILE        user allowlist: a JSON array of sites where protection is off
      --https-filter DIR      DuckDuckGo's Smarter Encryption files: https_bloomfilter.bin,
                              https_bloomfilter_spec.json and, if present, https_allowlist.json
      --gpc on|off            the user's Global Privacy Control setting (default on)
      --gpc-header S          which navigations carry Sec-GPC: enabled-sites (default: the sites
                              of gpcHeaderEnabledSites, as hosts that set headers on navigations
                              only) or every-request
    """

    static func run(_ arguments: [String]) throws -> Int32 {
        let options = try CommandLineArguments(
            arguments, valueOptions: ProtectionInputs.optionNames.union(["https-filter", "gpc", "gpc-header"]))
        if options.has("help") {
            Output.standardOutput(help)
            return 0
        }
        guard options.positionals.isEmpty else { throw UsageError("unexpected argument \"\(options.positionals[0].excerpt())\"") }
        guard options["privacy-config"] != nil else { throw UsageError("navigate needs --privacy-config FILE") }
        let gpcOn: Bool
        switch options["gpc"] ?? "on" {
        case "on": gpcOn = true
        case "off": gpcOn = false
        case let other: throw UsageError("--gpc takes on or off, not \"\(other.excerpt())\"")
        }
        let headerScope: GlobalPrivacyControl.HeaderScope
        switch options["gpc-header"] ?? "enabled-sites" {
        case "enabled-sites": headerScope = .enabledSites
        case "every-request": headerScope = .everyRequest
        case let other: throw UsageError("--gpc-header takes enabled-sites or every-request, not \"\(other.excerpt())\"")
        }
        // The runtime's composition of the same inputs (ProtectionInputs), without building a set.
        var inputs = ProtectionInputs(options)
        inputs.globalPrivacyControl = gpcOn
        inputs.httpsFilterDirectory = options["https-filter"]
        let protector = try inputs.navigationProtector(gpcHeaderScope: headerScope)
        return JSONLines.process { line throws(InputError) in
            let navigation = Navigation(
                url: try line.required("url"), initiator: try line.optional("initiator"),
                referrer: try line.optional("referrer"), topURL: try line.optionalTopURL())
            let decision = protector.decision(for: navigation)
            var headers = JSONObject()
            if let gpc = decision.gpcHeader { headers.append("Sec-GPC", .string(gpc)) }
            if let referrer = decision.referrer { headers.append("Referer", .string(referrer)) }
            return .object(JSONObject([
                ("url", .string(decision.url)), ("ampDetected", .bool(decision.ampDetected)), ("headers", .object(headers)),
                ("reasons", .array(decision.reasons.map { .string($0.rawValue) })),
            ]))
        }
    }
}
