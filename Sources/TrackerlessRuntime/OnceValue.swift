import Foundation

/// A value made on first use, once, other callers waiting for it: what a set derives from its
/// inputs only when a host asks (``ProtectionSet/navigationProtector``).
final class OnceValue<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value?

    /// The value; `make` runs on the first call only.
    func get(_ make: () -> Value) -> Value {
        lock.lock()
        defer { lock.unlock() }
        if let value { return value }
        let made = make()
        value = made
        return made
    }
}
