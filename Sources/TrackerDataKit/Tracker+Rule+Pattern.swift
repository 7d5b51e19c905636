extension Tracker.Rule {
    /// A rule's pattern: a `String` of its own, or bytes in a ``PatternBytes`` it shares with
    /// the other rules of its tracker (the parser's way for patterns of more than 15 bytes,
    /// which a `String` keeps in an allocation of its own: 80 bytes with malloc's header for
    /// the 21 bytes of `t1000\.example/ads/`).
    // Sendable: a `PatternBytes` (a `ManagedBuffer`, which cannot be) is never changed once made.
    enum Pattern: @unchecked Sendable, Hashable {
        case own(String)
        case shared(PatternBytes, start: UInt32, count: UInt32)

        var string: String {
            switch self {
            case .own(let string): string
            case .shared(let bytes, let start, let count): bytes.string(at: start, count: count)
            }
        }

        /// Whether both are the same text as `String`s compare (canonical equivalence): the same
        /// bytes without making a `String` of a shared one, otherwise as `String`s.
        static func == (left: Pattern, right: Pattern) -> Bool {
            switch (left, right) {
            case (.own(let left), .own(let right)):
                return left == right
            case (.shared(let bytes, let start, let count), .own(var string)),
                 (.own(var string), .shared(let bytes, let start, let count)):
                if string.withUTF8({ bytes.pattern(at: start, count: count, equals: $0) }) { return true }
            case (.shared(let leftBytes, let leftStart, let leftCount), .shared(let rightBytes, let rightStart, let rightCount)):
                if leftBytes === rightBytes && leftStart == rightStart && leftCount == rightCount { return true }
            }
            return left.string == right.string
        }

        func hash(into hasher: inout Hasher) { hasher.combine(string) }

        /// Gives `rules` whose patterns are longer than a `String` keeps inline one
        /// ``PatternBytes`` for all of them.
        static func share(in rules: inout [Tracker.Rule]) {
            var long = 0
            var count = 0
            for rule in rules {
                guard case .own(let string) = rule.pattern, string.utf8.count > 15 else { continue }
                long += 1
                count += string.utf8.count
            }
            guard long > 1 else { return }
            let bytes = PatternBytes.make(count: count)
            var start = 0
            for index in rules.indices {
                guard case .own(var string) = rules[index].pattern, string.utf8.count > 15 else { continue }
                let length = string.withUTF8 { bytes.copy($0, to: start) }
                rules[index].pattern = .shared(bytes, start: UInt32(start), count: UInt32(length))
                start += length
            }
        }
    }
}
