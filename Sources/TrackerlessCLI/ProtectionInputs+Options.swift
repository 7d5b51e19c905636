import ContentRuleList
import RuleBuilder
import TrackerDataKit
import TrackerlessCore
import TrackerlessRuntime
import UserScripts

extension ProtectionInputs {
    /// The options naming the inputs that every command reading a blocklist shares.
    static let optionNames: Set<String> = ["tds", "privacy-config", "allowlist"]

    /// The inputs the options name, read by the one build's reader (``ProtectionInputs``):
    /// `--tds` (the bundled sample without it), `--privacy-config`, `--allowlist`, and
    /// `surrogates`, loaded from `--surrogates`, as their surrogates.txt index.
    init(_ options: CommandLineArguments, surrogates: SurrogateLibrary? = nil) {
        self.init(
            trackerData: options["tds"].map { InputDocument.file($0) } ?? ProtectionInputs.sample.trackerData,
            privacyConfiguration: options["privacy-config"].map { InputDocument.file($0) },
            userAllowlist: options["allowlist"].map { InputDocument.file($0) },
            // The surrogates as embedded: their index, whether they came from files or the SDK.
            surrogates: surrogates.map { InputDocument.bytes(Array($0.index.utf8), name: options["surrogates"] ?? "surrogates") })
    }

    /// The surrogates `--surrogates` names (a surrogates.txt file or a directory of `<name>.js`
    /// files, as `scripts` reads them), what cannot be read of them reported on standard error;
    /// nil without the option (the bundled ones, which `scripts` embeds by default).
    static func surrogates(_ options: CommandLineArguments) throws -> SurrogateLibrary? {
        guard let path = options["surrogates"] else { return nil }
        let library = try SurrogateLibrary(contentsOf: path)
        for warning in library.warnings { Output.standardError("warning: \(warning)") }
        return library
    }

    /// The options that set how the rule lists are written (``ruleListOptions(_:)``).
    static let ruleListOptionNames: Set<String> = ["site-conditions", "max-rules", "max-bytes", "webkit"]

    /// The inputs of `rules` and `cookies`: the documents the options name, with the settings
    /// of ``ruleListOptions(_:)``.
    ///
    /// - Throws: ``UsageError`` for a setting out of its range.
    static func forRuleLists(_ options: CommandLineArguments) throws -> ProtectionInputs {
        var inputs = ProtectionInputs(options)
        try inputs.ruleListOptions(options)
        return inputs
    }

    /// Sets the WebKit target (`--webkit`) and the rule list settings the options give:
    /// `--site-conditions`, `--exact-path-matches`, `--max-rules`, `--max-bytes` (each where the
    /// command takes it), as `rules`, `cookies` and `scripts` read them.
    ///
    /// - Throws: ``UsageError`` for a setting out of its range.
    mutating func ruleListOptions(_ options: CommandLineArguments) throws {
        webKit = try WebKitOption.target(options)
        if let style = options["site-conditions"] {
            guard let parsed = RuleListBuilder.Settings.SiteConditionStyle(rawValue: style) else {
                throw UsageError("--site-conditions must be if-top-url or if-domain, not \"\(style.excerpt())\"")
            }
            ruleLists.siteConditionStyle = parsed
        }
        ruleLists.matchesRuleTextAfterHost = options.has("exact-path-matches")
        if let text = options["max-rules"] {
            guard let maximum = Int(text) else { throw UsageError("--max-rules must be a number, not \"\(text.excerpt())\"") }
            ruleLists.maximumRulesPerList = maximum
        }
        if let text = options["max-bytes"] {
            guard let maximum = Int(text) else { throw UsageError("--max-bytes must be a number of bytes, not \"\(text.excerpt())\"") }
            ruleLists.maximumBytesPerList = maximum
        }
        do throws(RuleListSettingsError) {
            try ruleLists.validate()
        } catch {
            let option = ["maximumRulesPerList": "--max-rules", "maximumBytesPerList": "--max-bytes"][error.setting] ?? error.setting
            throw UsageError("\(option) must be \(error.range), not \(error.value)")
        }
    }

    /// The inputs read and parsed as the one build reads them; an input that cannot be read or
    /// parsed is an error in its parser's words (the file, the JSON path).
    func parsedForCommand() throws(InputError) -> ParsedInputs {
        try Self.forCommand { () throws(ProtectionError) in try parse() }
    }

    /// The value of a step of the one build; its error in the words of the input's parser or
    /// builder (the file, the JSON path), without the input's name that the runtime adds.
    static func forCommand<Value>(_ step: () throws(ProtectionError) -> Value) throws(InputError) -> Value {
        do throws(ProtectionError) {
            return try step()
        } catch {
            if case .invalidInput(_, let detail) = error { throw InputError(detail) }
            throw InputError(error.description)
        }
    }
}
