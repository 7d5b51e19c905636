import Dispatch

/// Two independent pieces of work at once: the caller's thread and one more (the second core),
/// for the parts of a build or a load that share no state.
enum Parallel {
    /// `first` and `second` run concurrently; returns when both have.
    static func both<A: Sendable, B: Sendable>(_ first: @Sendable () -> A, _ second: @Sendable () -> B) -> (A, B) {
        let results = Results<A, B>()
        withoutActuallyEscaping(first) { first in
            withoutActuallyEscaping(second) { second in
                DispatchQueue.concurrentPerform(iterations: 2) { index in
                    if index == 0 { results.first = first() } else { results.second = second() }
                }
            }
        }
        // Both ran to their end before concurrentPerform returned.
        return (results.first!, results.second!)
    }

    /// Each slot is written by one of the two threads only, and read after both joined.
    private final class Results<A, B>: @unchecked Sendable {
        var first: A?
        var second: B?
    }
}
