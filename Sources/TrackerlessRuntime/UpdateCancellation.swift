import Foundation

/// Stops a check of a ``ProtectionUpdater``: its download in flight is cancelled, its wait
/// before a retry ends, and it makes no change.
final class UpdateCancellation: @unchecked Sendable {
    private let condition = NSCondition()
    private var cancelled = false
    private var handlers: [Int: @Sendable () -> Void] = [:]
    private var nextHandler = 0

    var isCancelled: Bool {
        condition.lock()
        defer { condition.unlock() }
        return cancelled
    }

    /// Cancels: calls every registered handler once, wakes every wait.
    func cancel() {
        condition.lock()
        guard !cancelled else {
            condition.unlock()
            return
        }
        cancelled = true
        let handlers = Array(handlers.values)
        self.handlers = [:]
        condition.broadcast()
        condition.unlock()
        for handler in handlers { handler() }
    }

    /// Calls `handler` on cancellation (at once when cancelled already) until ``remove(_:)``.
    func onCancel(_ handler: @escaping @Sendable () -> Void) -> Int {
        condition.lock()
        guard !cancelled else {
            condition.unlock()
            handler()
            return -1
        }
        nextHandler += 1
        handlers[nextHandler] = handler
        condition.unlock()
        return nextHandler
    }

    func remove(_ token: Int) {
        condition.lock()
        handlers[token] = nil
        condition.unlock()
    }

    /// Waits `seconds`, or less when cancelled; returns whether it was cancelled.
    func wait(seconds: TimeInterval) -> Bool {
        let end = Date(timeIntervalSinceNow: seconds)
        condition.lock()
        defer { condition.unlock() }
        while !cancelled && condition.wait(until: end) {}
        return cancelled
    }
}
