import TrackerDataKit
import TrackerlessCore
import URLPrefilter

/// `trackerless https`: DuckDuckGo's Smarter Encryption decision for each request, from its filter
/// files.
enum HTTPSCommand {
    static let help = """
    Usage: trackerless https --bloom-filter FILE --spec FILE [--allowlist FILE]
                             [--negative-bloom-filter FILE --negative-allowlist FILE] [--privacy-config FILE]

    Reads JSON lines {"url", "top"} on standard input and writes one JSON line per request:
    {"url": the URL to load, "upgraded": bool}. An http:// (or ws://) URL without a port becomes
    https:// (wss://) when its host, exactly, is in the Bloom filter of hosts that serve HTTPS, not
    in the allowlist of its false positives, not local (localhost, .test, .example, private and
    loopback addresses), and the configuration's https feature is on for the site and the host.
    top is the top page's URL as in the address bar; for a navigation, the URL itself ("site"
    before, now refused).
      --bloom-filter FILE           DuckDuckGo's https_bloomfilter.bin (its Apple and Android apps)
      --spec FILE                   its https_bloomfilter_spec.json (bitCount, totalEntries, sha256)
      --allowlist FILE              https_allowlist.json: hosts never upgraded ({"data": [host, ...]})
      --negative-bloom-filter FILE  https_negative_bloomfilter.json, as the browser extension has it:
                                    a host outside the main filter is upgraded when it is in
                                    --negative-allowlist, and not when it is in this filter
      --negative-allowlist FILE     https_negative_allowlist.json
      --privacy-config FILE         the https feature's state and exceptions, unprotectedTemporary
    """

    static func run(_ arguments: [String]) throws -> Int32 {
        let options = try CommandLineArguments(
            arguments,
            valueOptions: ["bloom-filter", "spec", "allowlist", "negative-bloom-filter", "negative-allowlist", "privacy-config"])
        if options.has("help") {
            Output.standardOutput(help)
            return 0
        }
        guard options.positionals.isEmpty else { throw UsageError("unexpected argument \"\(options.positionals[0])\"") }
        guard let filterPath = options["bloom-filter"], let specPath = options["spec"] else {
            throw UsageError("https needs --bloom-filter FILE and --spec FILE")
        }
        guard (options["negative-bloom-filter"] == nil) == (options["negative-allowlist"] == nil) else {
            throw UsageError("--negative-bloom-filter and --negative-allowlist go together")
        }
        // The Smarter Encryption files read as the runtime reads its directory of them.
        var upgrade = try HTTPSUpgrade(
            bloomFilterFile: filterPath, specificationFile: specPath, allowlistFile: options["allowlist"],
            privacyConfiguration: try options["privacy-config"].map { path throws in try PrivacyConfiguration(contentsOfFile: path) })
        if let path = options["negative-bloom-filter"], let allowlistPath = options["negative-allowlist"] {
            upgrade.negativeBloomFilter = try JSBloomFilter(parsing: try FileIO.read(path: path), file: path)
            upgrade.negativeAllowlist = try HTTPSUpgrade.allowlist(parsing: try FileIO.read(path: allowlistPath), file: allowlistPath)
        }
        return JSONLines.process { line throws(InputError) in
            let url = try line.required("url")
            let upgraded = upgrade.upgradedURL(forRequestURL: url, topURL: try line.topURL())
            return .object(JSONObject([("url", .string(upgraded ?? url)), ("upgraded", .bool(upgraded != nil))]))
        }
    }
}
