/// Why the extension could not load what its configuration names; each case names the file.
public enum RequestHookError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The compiled engine could not be read or is not a valid engine file.
    case engine(path: String, detail: String)
    /// The navigation data (`ProtectionSet.navigationData`) could not be read or parsed.
    case navigationData(path: String, detail: String)

    public var description: String {
        switch self {
        case .engine(let path, let detail): "\(path): compiled engine: \(detail)"
        case .navigationData(let path, let detail): "\(path): navigation data: \(detail)"
        }
    }
}
