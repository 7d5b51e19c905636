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

    /// The inputs read and parsed as the one build reads them; an input that cannot be read or
    /// parsed is an error in its parser's words (the file, the JSON path).
    func parsedForCommand() throws(InputError) -> ParsedInputs {
        do throws(ProtectionError) {
            return try parse()
        } catch {
            if case .invalidInput(_, let detail) = error { throw InputError(detail) }
            throw InputError(error.description)
        }
    }
}
