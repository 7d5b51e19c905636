public import TrackerDataKit
public import TrackerlessCore

/// Why a prefilter, its PIR inputs or an HTTPS-upgrade filter could not be built, read or
/// written, naming the place.
public enum PrefilterError: Error, Sendable, Equatable, CustomStringConvertible {
    /// An entry that is not a scheme-less URL the OS could probe; `place` is for example
    /// `entries.txt:12` or `tds.json: trackers["x y"]`.
    case invalidEntry(place: String, entry: String, reason: String)
    /// The source yielded no entries, so there is nothing to filter.
    case noEntries(source: String)
    /// The Bloom filter could not be sized or read.
    case bloomFilter(BloomFilterError)
    /// The Tracker Radar blocklist could not be read.
    case trackerData(TrackerDataError)
    /// An input file is malformed; `reason` names the JSON path where there is one.
    case invalidFile(path: String, reason: String)
    /// An option of the PIR server inputs is invalid, for example an empty bundle identifier.
    case invalidOption(name: String, reason: String)
    /// An output file could not be written; nothing was replaced.
    case unwritable(FileError)

    /// The place and the problem, for example
    /// `entries.txt:3: "exa mple.com": a space is not allowed in an entry`.
    public var description: String {
        switch self {
        case .invalidEntry(let place, let entry, let reason):
            return "\(place): \(JSONValue.string(entry.excerpt()).jsonString()): \(reason)"
        case .noEntries(let source):
            return "\(source): no entries: a prefilter needs at least one"
        case .bloomFilter(let error):
            return error.description
        case .trackerData(let error):
            return error.description
        case .invalidFile(let path, let reason):
            return "\(path): \(reason)"
        case .invalidOption(let name, let reason):
            return "\(name): \(reason)"
        case .unwritable(let error):
            return error.description
        }
    }
}
