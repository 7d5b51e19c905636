import Dispatch
import Foundation

/// Runs one flush at the earliest deadline asked for; later requests before it join it.
final class SavingTimer: @unchecked Sendable {
    private let queue = DispatchQueue(label: "trackerless.statistics-totals", qos: .utility)
    private let lock = NSLock()
    private var deadline: DispatchTime?
    private let save: @Sendable () -> Void

    init(save: @escaping @Sendable () -> Void) {
        self.save = save
    }

    /// Asks for a flush within `seconds`.
    func request(within seconds: Double) {
        let requested = DispatchTime.now() + seconds
        lock.lock()
        if let deadline, deadline <= requested {
            lock.unlock()
            return
        }
        deadline = requested
        lock.unlock()
        queue.asyncAfter(deadline: requested) { [self] in
            lock.lock()
            // A sooner request replaced this one, and has run or will.
            guard deadline == requested else {
                lock.unlock()
                return
            }
            deadline = nil
            lock.unlock()
            save()
        }
    }
}
