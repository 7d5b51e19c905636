public import TrackerlessCore

/// Why a ``ProtectionSet`` could not be made, or a runtime's state not be saved; every case
/// names its input or file and the place in it.
public enum ProtectionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// An input could not be read or parsed. `detail` names the file and the place (JSON path,
    /// line), for example `tds (apple-tds.json): apple-tds.json: trackers["x.com"]: expected an
    /// object, found a string`.
    case invalidInput(ProtectionInput, detail: String)
    /// A built artifact failed its validation (a rule list WebKit would refuse, a rule engine
    /// that does not compile); the set is not used. `artifact` names it (`rule list
    /// trackerless-blocking-0-…`), `detail` says why in WebKit's words where WebKit has them.
    case invalidArtifact(artifact: String, detail: String)
    /// A file of the cache directory or of the site toggles could not be written.
    case unwritable(FileError)

    /// The input, when the error is about one.
    public var input: ProtectionInput? {
        if case .invalidInput(let input, _) = self { return input }
        return nil
    }

    /// The message, naming the input or file and the place.
    public var description: String {
        switch self {
        case .invalidInput(let input, let detail): "\(input): \(detail)"
        case .invalidArtifact(let artifact, let detail): "\(artifact): \(detail)"
        case .unwritable(let error): error.description
        }
    }
}
