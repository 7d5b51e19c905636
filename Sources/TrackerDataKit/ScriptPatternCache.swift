import Foundation

/// The regular expressions of features' `settings.scripts[].domain`, each compiled once per
/// process instead of at every question about a script.
///
/// A configuration is a mutable value, so the expressions are kept by their text rather than in
/// it. NSRegularExpression is immutable once compiled and documented as safe to use from any
/// thread; the lock guards the table only. The table is emptied when it reaches
/// ``capacity`` patterns, so a host that reads many configurations keeps a bounded set.
enum ScriptPatternCache {
    /// The most patterns kept.
    static let capacity = 1_024

    private static let lock = NSLock()
    /// The compiled expression of each pattern seen; nil for one that does not compile.
    nonisolated(unsafe) private static var compiled: [String: NSRegularExpression?] = [:]

    /// Whether `pattern` compiles and matches somewhere in `text`.
    static func pattern(_ pattern: String, matches text: String) -> Bool {
        guard let regex = regex(pattern) else { return false }
        return regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }

    private static func regex(_ pattern: String) -> NSRegularExpression? {
        lock.lock()
        defer { lock.unlock() }
        if let known = compiled[pattern] { return known }
        if compiled.count >= capacity { compiled.removeAll(keepingCapacity: true) }
        let made = try? NSRegularExpression(pattern: pattern)
        compiled[pattern] = .some(made)
        return made
    }
}
