import TrackerDataKit
import TrackerlessCore
import UserScripts

/// The inputs `rules`, `resolve` and `stats` share: the blocklist, the privacy configuration and the
/// user allowlist, read from the files the options name.
struct BlocklistInputs {
    var trackerData: TrackerData
    /// nil: tracker blocking on everywhere. A configuration that leaves contentBlocking out turns
    /// it off, as DuckDuckGo's clients do.
    var configuration: PrivacyConfiguration?
    /// The file `configuration` was read from.
    var configurationPath: String?
    var userAllowlist: UserAllowlist

    /// Option names shared by the commands that read these inputs.
    static let optionNames: Set<String> = ["tds", "privacy-config", "allowlist"]

    /// Reads `--tds` (the bundled sample without it), `--privacy-config` and `--allowlist`.
    init(_ options: CommandLineArguments) throws {
        if let path = options["tds"] {
            trackerData = try TrackerData(contentsOfFile: path)
        } else {
            trackerData = try TrackerData(parsing: Array(TrackerData.sampleDocument.utf8), file: "(bundled sample tds.json)")
        }
        configurationPath = options["privacy-config"]
        configuration = try configurationPath.map { path throws in try PrivacyConfiguration(contentsOfFile: path) }
        userAllowlist = UserAllowlist()
        if let path = options["allowlist"] {
            userAllowlist = try UserAllowlist(parsing: try FileIO.read(path: path), file: path)
        }
    }

    /// What reading the tds and the privacy configuration skipped, each with its file and JSON path,
    /// and what the configuration leaves out that tracker blocking depends on.
    var warnings: [InputWarning] {
        trackerData.warnings + (configuration?.warnings ?? [])
            + (configuration?.protectionWarnings(file: configurationPath) ?? [])
    }

    /// The resolver of these inputs with the surrogates `--surrogates` names (a surrogates.txt
    /// file or a directory of `<name>.js` files, as `scripts` reads them), or the bundled ones,
    /// which `scripts` embeds by default; what cannot be read is reported on standard error.
    func resolver(surrogatesPath path: String?) throws -> TrackerResolver {
        var surrogates = Surrogates.bundled
        if let path {
            let library = try SurrogateLibrary(contentsOf: path)
            for warning in library.warnings { Output.standardError("warning: \(warning)") }
            surrogates = library.surrogates
        }
        return TrackerResolver(
            trackerData: trackerData, surrogates: surrogates, privacyConfiguration: configuration,
            userAllowlist: userAllowlist)
    }
}
