import TrackerDataKit
import TrackerlessCore
import URLPrefilter

/// `trackerless prefilter`: the Bloom filter for Apple's URL filter (`NEURLFilterPrefilter`)
/// and the inputs of Apple's PIR server, from a tds or a list of entries.
enum PrefilterCommand {
    static let defaultFalsePositiveRate = 0.0001
    static let defaultBundleIdentifier = "com.example.urlfilter"

    static let help = """
    Usage: trackerless prefilter (--tds FILE | --entries FILE) [--false-positive-rate P] [--seed N]
                                 [--bundle-id ID] [--user-token TOKEN ...] --output DIR

    Builds the Bloom filter Apple's URL filter takes (NEURLFilterPrefilter: FNV-1a and MurmurHash3
    double hashing) and the inputs of Apple's PIR server for the same entries, and writes them to
    DIR as one generation:
      prefilter.json        {"data": base64, "bitCount", "hashCount", "murmurSeed", "tag": SHA-256 of data}
      input.txtpb           the keyword dataset for PIRProcessDatabase (each entry -> "1")
      url-config.json       the PIRProcessDatabase configuration (writes url-<shard>.bin, .params.txtpb)
      service-config.json   the PIRService configuration (use case <bundle id>.url.filtering)
    DIR becomes a symbolic link to .DIR.<content hash>/, switched by one rename, so that a kill
    leaves the old four files or the new four. A host or the PIR tools resolve DIR once (realpath)
    and read every file from the resolved directory (run PIRProcessDatabase there, so that its
    url-<shard>.bin files sit beside the input they came from). The replaced generation is kept
    until the next run. A plain DIR holding only these files and the PIR tool's url-* outputs (an
    older version's output) is replaced; any other directory is refused. A summary goes to
    standard error.
      --tds FILE                 Tracker Radar blocklist: trackers blocked by default and the CNAMEs cloaking them
      --entries FILE             one entry a line, scheme-less as the OS probes (example.com, example.com/ads/);
                                 blank lines and lines starting with # are skipped
      --false-positive-rate P    between 0 and 1, exclusive (default \(defaultFalsePositiveRate)); the OS probes
                                 dozens of sub-URLs per request, so keep it small
      --seed N                   MurmurHash3 seed, 0 to 4294967295 (default: random, as Apple's tool does)
      --bundle-id ID             bundle identifier of the app configuring the filter (default \(defaultBundleIdentifier))
      --user-token TOKEN         a user token PIRService accepts (tier1); repeat for more
      --output DIR               the set's link (above); its parent must exist
    """

    static func run(_ arguments: [String]) throws -> Int32 {
        let options = try CommandLineArguments(
            arguments,
            valueOptions: ["tds", "entries", "false-positive-rate", "seed", "bundle-id", "user-token", "output"])
        if options.has("help") {
            Output.standardOutput(help)
            return 0
        }
        guard options.positionals.isEmpty else { throw UsageError("unexpected argument \"\(options.positionals[0].excerpt())\"") }
        for name in ["tds", "entries", "false-positive-rate", "seed", "bundle-id", "output"]
        where (options.repeatedOptions[name]?.count ?? 0) > 1 {
            throw UsageError("prefilter takes one --\(name)")
        }
        guard let output = options["output"] else { throw UsageError("prefilter needs --output DIR") }
        let rate = try falsePositiveRate(options["false-positive-rate"])
        let seed = try murmurSeed(options["seed"])

        switch (options["tds"], options["entries"]) {
        case (nil, nil): throw UsageError("prefilter needs --tds FILE or --entries FILE")
        case (.some, .some): throw UsageError("prefilter takes --tds FILE or --entries FILE, not both")
        default: break
        }

        do throws(PrefilterError) {
            let entries = try readEntries(tds: options["tds"], list: options["entries"])
            let prefilter = try Prefilter(entries: entries, falsePositiveRate: rate, murmurSeed: seed)
            let inputs = try PIRServerInputs(
                entries: entries, appBundleIdentifier: options["bundle-id"] ?? defaultBundleIdentifier,
                userTokens: options.repeatedOptions["user-token"] ?? [])
            let bundle = PrefilterBundle(prefilter: prefilter, pirServerInputs: inputs)
            try bundle.write(toDirectory: output, isOwnFile: isPIROutputFileName)
            Output.standardError(
                "\(output): \(entries.count) entries, bitCount \(prefilter.bitCount), hashCount \(prefilter.hashCount), "
                    + "murmurSeed \(prefilter.murmurSeed), \(prefilter.data.count) bytes, "
                    + "\(inputs.shardCount) PIR shard(s) for \(inputs.useCaseName), tag \(prefilter.tag)")
        } catch {
            throw InputError(error.description)
        }
        return 0
    }

    /// The PIR tool's outputs (`url-<shard>.bin`, `url-<shard>.params.txtpb`), which an older
    /// version's plain DIR held beside the prefilter's own files.
    static func isPIROutputFileName(_ name: String) -> Bool {
        name.hasPrefix(PIRServerInputs.fileStem + "-") && (name.hasSuffix(".bin") || name.hasSuffix(".params.txtpb"))
    }

    private static func readEntries(tds: String?, list: String?) throws(PrefilterError) -> PrefilterEntries {
        if let tds {
            let trackerData: TrackerData
            do throws(TrackerDataError) {
                trackerData = try TrackerData(contentsOfFile: tds)
            } catch {
                throw .trackerData(error)
            }
            for warning in trackerData.warnings { Output.standardError("warning: \(warning)") }
            return try PrefilterEntries(trackerData: trackerData, source: tds)
        }
        let path = list ?? ""
        let bytes: [UInt8]
        do throws(FileError) {
            bytes = try FileIO.read(path: path)
        } catch {
            throw .invalidFile(path: path, reason: error.reason)
        }
        guard let text = String(validatingUTF8Bytes: bytes) else {
            throw .invalidFile(path: path, reason: "not UTF-8 text")
        }
        return try PrefilterEntries(lines: text, source: path)
    }

    private static func falsePositiveRate(_ text: String?) throws(UsageError) -> Double {
        guard let text else { return defaultFalsePositiveRate }
        guard let rate = Double(text) else {
            throw UsageError("--false-positive-rate \"\(text.excerpt())\" is not a number")
        }
        guard rate > 0, rate < 1 else {
            throw UsageError("--false-positive-rate: \(BloomFilterError.invalidFalsePositiveRate(rate))")
        }
        return rate
    }

    private static func murmurSeed(_ text: String?) throws(UsageError) -> UInt32 {
        guard let text else { return UInt32.random(in: 0...UInt32.max) }
        guard let seed = UInt32(text) else {
            throw UsageError("--seed \"\(text.excerpt())\" must be a whole number from 0 to \(UInt32.max)")
        }
        return seed
    }
}
