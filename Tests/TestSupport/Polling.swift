/// Waiting in an async test for something another thread or process does, without holding a
/// thread of the concurrency pool.
///
/// The limit is counted in polls, not on the clock: on Linux the pool is Dispatch's global queue,
/// which other tests' long synchronous bodies can hold for many minutes, and a task resumed
/// after such a stall must not give up at once because the clock moved on while it could not
/// look.
///
/// ```swift
/// let arrived = await Polling.until(seconds: 120) { server.requests("/tds.json").count >= 1 }
/// ```
public enum Polling {
    /// The pause between two looks.
    public static let interval: UInt64 = 20_000_000

    /// Looks at `condition` until it holds or `seconds` worth of pauses have passed; returns
    /// whether it held.
    public static func until(seconds: Double, _ condition: () -> Bool) async -> Bool {
        let polls = Int((seconds * 1e9 / Double(interval)).rounded(.up))
        for _ in 0..<polls {
            if condition() { return true }
            try? await Task.sleep(nanoseconds: interval)
        }
        return condition()
    }
}
