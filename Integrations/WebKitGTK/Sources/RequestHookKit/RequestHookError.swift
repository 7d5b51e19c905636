/// Why the extension could not load what its configuration names; each case names the file.
public enum RequestHookError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The compiled engine could not be read or is not a valid engine file.
    case engine(path: String, detail: String)
    /// The tds.json could not be read or parsed.
    case trackerData(path: String, detail: String)
    /// The privacy configuration could not be read or parsed.
    case privacyConfiguration(path: String, detail: String)

    public var description: String {
        switch self {
        case .engine(let path, let detail): "\(path): compiled engine: \(detail)"
        case .trackerData(let path, let detail): "\(path): tds: \(detail)"
        case .privacyConfiguration(let path, let detail): "\(path): privacy configuration: \(detail)"
        }
    }
}
