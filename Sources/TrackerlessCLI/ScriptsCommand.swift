import ContentRuleList
import Foundation
import TrackerDataKit
import TrackerlessCore
import TrackerlessRuntime
import UserScripts

/// `trackerless scripts`: the user scripts, the rule lists, the cookie lists and the surrogates index
/// of one blocklist, from the one build the runtime makes (`ProtectionBuild`).
enum ScriptsCommand {
    static let help = """
    Usage: trackerless scripts [--tds FILE] [--privacy-config FILE] [--allowlist FILE]
                               [--surrogates DIR|FILE] [--templates DIR]
                               [--bridge webkit|android|webview2|none] [--handler NAME]
                               [--batch-interval MS] [--block-in-script] [--block-keepalive]
                               [--debug] [--options FILE]
                               [--gpc on|off] [--secret HEX] [--webkit TARGET]
                               [--site-conditions if-top-url|if-domain] [--exact-path-matches]
                               [--max-rules N] [--max-bytes N]
                               --output DIR [--swift-output FILE]

    Renders the scripts a host injects into its web views and writes into DIR:
      blocking.js      page world, document start: surrogates (and blocking in script when asked)
      inference.js     isolated world, document start: reports what the page loaded or failed to
      rules.json       the content-blocker rule list (as `trackerless rules`; more lists: rules.2.json ...)
      cookies.json     the tracker-cookie rule list (as `trackerless cookies`; more: cookies.2.json ...),
                       where the privacy configuration turns cookie protection on
      surrogates.txt   the surrogates as a surrogates.txt index
      manifest.json    the set identity, each rule list's identifier, content hashes, sizes,
                       settings, input hashes, warnings, the secret scheme
    Options:
      --tds FILE              Tracker Radar blocklist (tds.json); without it, the bundled sample
      --privacy-config FILE   DuckDuckGo privacy configuration
      --allowlist FILE        user allowlist: a JSON array of sites where protection is off
      --surrogates DIR|FILE   a directory of <name>.js surrogates (first line "// <domain>/<name> <type>")
                              or a surrogates.txt file; without it, the bundled surrogates
      --templates DIR         a JSTemplates directory instead of the bundled templates (its
                              parts/message-queue.js, else the bundled queue)
      --bridge B              the host's message channel (default webkit)
      --handler NAME          message handler (WebKit) or injected object (Android); default trackerless
      --batch-interval MS     milliseconds between two messages of a script (default 100)
      --block-in-script       the blocking script also blocks the tracker requests page script starts
                              (not those of the HTML parser: decide those in the host's request hook)
                              and embeds every tracker; without it, only those a surrogate can stand in for
      --block-keepalive       the blocking script decides sendBeacon and fetch (requests that outlive their
                              document, which a request hook may never see) and embeds every tracker
      --debug                 the scripts report their own problems to the console
      --gpc on|off            the user's Global Privacy Control setting, which navigator.globalPrivacyControl
                              says where the privacy configuration's gpc feature applies (default on)
      --options FILE          the options above from a JSON file, e.g. {"bridge": "android", "handler": "h",
                              "batchInterval": 100, "blockInScript": true, "debug": false, "webkit": "safari-16"}
                              (the build plugin's trackerless.json)
      --secret HEX            the secret the messages carry (32 hex digits); without it the scripts
                              carry the marker TRACKERLESS-RENDER-SECRET-MARKER, which the host
                              replaces with a fresh secret at launch (RenderedScript.withSecret)
    \(WebKitOption.help)
      --site-conditions S, --exact-path-matches, --max-rules N, --max-bytes N
                              how the rule lists are written, as for `trackerless rules` (the
                              runtime's ProtectionInputs.ruleLists); each is part of the set identity
      --output DIR            where to write: the files above as one generation. DIR is a symbolic
                              link to .DIR.<content hash>/, switched by one rename, so that no reader
                              sees files of two runs: resolve DIR once (realpath) and read every file
                              from the resolved directory. The replaced generation is kept until the
                              next run. A DIR that is a plain directory holding only these files (an
                              older version's output) is replaced; any other directory is refused.
      --swift-output FILE     also write FILE, a Swift source holding the files above and the inputs as
                              string literals (internal enum TrackerlessGenerated; the build plugin's output)
    Warnings (a tds rule naming a missing surrogate, a surrogate skipped for a malformed header)
    go to standard error. A surrogate whose source could break out of the script (</script, U+2028,
    U+2029, a bracket it closes without opening or leaves open) is an error, with file and line: exit 1.
    """

    static func run(_ arguments: [String]) throws -> Int32 {
        let options = try CommandLineArguments(
            try ScriptOptionsFile.expand(arguments),
            valueOptions: ProtectionInputs.optionNames.union(ProtectionInputs.ruleListOptionNames).union([
                "surrogates", "templates", "bridge", "handler", "batch-interval", "secret", "output", "swift-output", "gpc",
            ]),
            flagOptions: ["block-in-script", "block-keepalive", "debug", "exact-path-matches"])
        if options.has("help") {
            Output.standardOutput(help)
            return 0
        }
        guard options.positionals.isEmpty else { throw UsageError("unexpected argument \"\(options.positionals[0].excerpt())\"") }
        guard let output = options["output"] else { throw UsageError("scripts needs --output DIR") }
        let settings = try makeSettings(options)
        var secret = ScriptSecret.marker
        if let hex = options["secret"] {
            guard let parsed = ScriptSecret(hex: hex) else { throw UsageError("--secret must be 32 hexadecimal digits") }
            secret = parsed
        }

        let templates = try options["templates"].map { directory throws in try ScriptTemplates(directory: directory) } ?? .bundled
        let surrogates = try options["surrogates"].map { path throws in try SurrogateLibrary(contentsOf: path) } ?? .bundled
        // A surrogate that could break out of its function is an error here, not a warning: the
        // output is what a host will inject.
        guard surrogates.refused.isEmpty else { throw ScriptRenderError.refusedSurrogates(surrogates.refused) }
        // The one build the runtime, the C API and the build plugin share (ProtectionBuild).
        var inputs = ProtectionInputs(options, surrogates: options["surrogates"] != nil ? surrogates : nil)
        inputs.scriptSettings = settings
        try inputs.ruleListOptions(options)
        inputs.templates = templates
        let build: ProtectionBuild
        do throws(ProtectionError) {
            build = try ProtectionBuild(inputs, secret: secret)
        } catch {
            // A setting the renderer refuses, in the renderer's words (they name the option).
            if case .invalidInput(.scriptSettings, let detail) = error { throw InputError(detail) }
            throw error
        }
        let scripts = build.scripts

        var files: [(name: String, bytes: [UInt8])] = [
            ("blocking.js", Array(scripts.blocking.source.utf8)),
            ("inference.js", Array(scripts.inference.source.utf8)),
        ]
        files += Self.files(of: build.set.ruleLists)
        let index = Array(surrogates.index.utf8)
        files.append(("surrogates.txt", index))
        let surrogateInput = (key: "surrogates", path: options["surrogates"] ?? "bundled", sha256: build.inputSHA256(.surrogates) ?? SHA256.hexDigest(index))
        let blockingLists = build.set.ruleLists.filter { $0.kind != .cookies }
        // The lists by file name, for their identifiers and (but Click-to-Load's) rule counts.
        var ruleLists: [String: EncodedRuleList] = [:]
        for (file, list) in zip(files.dropFirst(2), build.set.ruleLists) { ruleLists[file.name] = list }
        let trackerDataScope = settings.blockInScript || settings.blockKeepalive ? CompactTrackerData.Scope.all : .surrogateTrackers
        let manifest = Manifest(
            setIdentity: build.set.identity, scripts: scripts, settings: settings, trackerDataScope: trackerDataScope.rawValue,
            ruleLists: ruleLists,
            surrogateCount: surrogates.surrogates.surrogates.count, templates: options["templates"],
            inputs: inputHashes(options, build) + [surrogateInput], files: files)
        files.append(("manifest.json", manifest.bytes))
        let generation = try FileSet.write(files, to: output, isOwnFile: isOutputFileName)
        if let swiftOutput = options["swift-output"] {
            let source = try EmbeddedScriptsSource(outputDirectory: generation, build: build)
            try OutputFile.write(Array(source.text.utf8), to: swiftOutput)
        }

        let warnings = surrogates.warnings.map(\.description) + build.set.notes.filter { !$0.hasPrefix("size: ") }
        for warning in warnings { Output.standardError("warning: \(warning)") }
        let sizes = scripts.blocking.sizes
        Output.standardError(
            "wrote \(output): blocking.js \(sizes.total) bytes (tracker data \(sizes.trackerData) for \(trackerDataScope.rawValue), "
                + "surrogates \(sizes.surrogates), template \(sizes.template)), inference.js \(scripts.inference.byteCount) bytes, "
                + "\(blockingLists.reduce(0) { $0 + $1.ruleCount }) rules, \(surrogates.surrogates.surrogates.count) surrogates; "
                + "\(warnings.count) warning(s)")
        return 0
    }

    /// The names this command writes, which an older version's output directory holds.
    static func isOutputFileName(_ name: String) -> Bool {
        ["blocking.js", "inference.js", "surrogates.txt", "manifest.json"].contains(name) || RulesCommand.isRuleListFileName(name)
            || isCookieListFileName(name)
    }

    /// The files of a set's lists, named by ``TrackerlessRuntime/EncodedRuleList/fileNames(of:)``
    /// as `trackerless rules` names them: rules.json, rules.2.json ..., rules.block-ctl-fb.json
    /// ..., then cookies.json, cookies.2.json ...
    static func files(of lists: [EncodedRuleList]) -> [FileSet.File] {
        zip(EncodedRuleList.fileNames(of: lists), lists).map { ($0, $1.json) }
    }

    /// `cookies.json` for the first cookie list, `cookies.2.json` for the second, ...
    static func cookieListFileName(_ number: Int) -> String {
        EncodedRuleList.numberedFileName("cookies", number)
    }

    /// Whether `name` is one of the cookie lists' names ``files(of:)`` gives.
    static func isCookieListFileName(_ name: String) -> Bool {
        RulesCommand.isNumberedFileName(name, stem: "cookies")
    }

    private static func makeSettings(_ options: CommandLineArguments) throws -> ScriptSettings {
        var settings = ScriptSettings()
        if let name = options["bridge"] {
            guard let bridge = MessageBridge(rawValue: name) else {
                throw UsageError("--bridge must be webkit, android, webview2 or none, not \"\(name.excerpt())\"")
            }
            settings.bridge = bridge
        }
        if let handler = options["handler"] { settings.handler = handler }
        if let text = options["batch-interval"] {
            guard let interval = Int(text) else { throw UsageError("--batch-interval must be a number of milliseconds, not \"\(text.excerpt())\"") }
            settings.batchInterval = interval
        }
        settings.blockInScript = options.has("block-in-script")
        settings.blockKeepalive = options.has("block-keepalive")
        settings.debug = options.has("debug")
        switch options["gpc"] ?? "on" {
        case "on": settings.globalPrivacyControl = true
        case "off": settings.globalPrivacyControl = false
        case let other: throw UsageError("--gpc takes on or off, not \"\(other.excerpt())\"")
        }
        do {
            try settings.validate()
        } catch {
            throw UsageError("\(error)")
        }
        return settings
    }

    /// SHA-256 of each input file given, for the manifest: of the bytes the build read.
    private static func inputHashes(_ options: CommandLineArguments, _ build: ProtectionBuild) -> [(key: String, path: String, sha256: String)] {
        let inputs: [(option: String, key: String, input: ProtectionInput)] = [
            ("tds", "tds", .trackerData), ("privacy-config", "privacyConfig", .privacyConfiguration), ("allowlist", "allowlist", .userAllowlist),
        ]
        return inputs.compactMap { entry in
            guard let path = options[entry.option], let sha256 = build.inputSHA256(entry.input) else { return nil }
            return (entry.key, path, sha256)
        }
    }
}
