import TrackerlessCore

/// The machine's load averages (`/proc/loadavg`): the machine is shared, so every run says how
/// busy it was.
struct LoadAverage: Sendable, CustomStringConvertible {
    /// Over the last minute, five minutes and fifteen minutes.
    let lastMinute: Double, lastFiveMinutes: Double, lastFifteenMinutes: Double

    /// The current load, or nil where `/proc/loadavg` is missing.
    static func current() -> LoadAverage? {
        guard let bytes = try? FileIO.read(path: "/proc/loadavg", maxBytes: 4096) else { return nil }
        let fields = String(decoding: bytes, as: UTF8.self).split(separator: " ").prefix(3).compactMap { Double($0) }
        guard fields.count == 3 else { return nil }
        return LoadAverage(lastMinute: fields[0], lastFiveMinutes: fields[1], lastFifteenMinutes: fields[2])
    }

    var description: String {
        [lastMinute, lastFiveMinutes, lastFifteenMinutes].map { Formatting.decimal($0, digits: 2) }.joined(separator: " ")
    }
}
