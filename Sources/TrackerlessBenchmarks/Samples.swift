/// Repeated timings of one piece of work, summarised by their median and minimum.
///
/// The machine is shared, so the median is the figure to quote; the minimum shows what the work
/// costs when nothing else runs.
struct Samples: Sendable {
    /// Each run's time, in milliseconds, in the order they were taken.
    let milliseconds: [Double]

    /// The middle run (the mean of the two middle runs for an even count); 0 without runs.
    var median: Double {
        let sorted = milliseconds.sorted()
        guard !sorted.isEmpty else { return 0 }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// The fastest run; 0 without runs.
    var minimum: Double { milliseconds.min() ?? 0 }

    /// Times `body` `runs` times after `warmUps` untimed calls, and returns the last result with
    /// the timings, so the work cannot be optimised away.
    static func measure<Result, Failure: Error>(
        runs: Int, warmUps: Int = 1, _ body: () throws(Failure) -> Result
    ) throws(Failure) -> (Samples, Result) {
        for _ in 0..<warmUps { _ = try body() }
        var (time, last) = try timed(body)
        var times = [time]
        times.reserveCapacity(runs)
        for _ in 1..<max(1, runs) {
            (time, last) = try timed(body)
            times.append(time)
        }
        return (Samples(milliseconds: times), last)
    }

    /// How long one call of `body` takes, in milliseconds, and what it returns.
    static func timed<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> (Double, Result) {
        let start = MonotonicClock.now
        let result = try body()
        return (MonotonicClock.milliseconds(since: start), result)
    }
}
