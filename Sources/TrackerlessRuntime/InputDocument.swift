import TrackerlessCore

/// One input of a ``ProtectionSet``: a file to read, or bytes the host already holds (a
/// download, a resource of the app bundle).
public enum InputDocument: Sendable, Hashable {
    /// The file at a path; errors name the path.
    case file(String)
    /// Bytes in memory; errors name them by `name` (a file name or a URL).
    case bytes([UInt8], name: String)

    /// The name errors and warnings use: the path, or the name given with the bytes.
    public var name: String {
        switch self {
        case .file(let path): path
        case .bytes(_, let name): name
        }
    }

    /// The document's bytes.
    func read() throws(FileError) -> [UInt8] {
        switch self {
        case .file(let path): try FileIO.read(path: path)
        case .bytes(let bytes, _): bytes
        }
    }
}
