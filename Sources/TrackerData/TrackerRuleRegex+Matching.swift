/// Matching a rule regex against a URL in linear time: a Thompson NFA simulated over the bytes,
/// so that the time is bounded by URL length × pattern size whatever the pattern
/// (`(a+)+$` included).
extension TrackerRuleRegex {
    /// The most NFA states one rule may compile into (counted repetitions are unrolled).
    static let maximumStateCount = 20_000

    /// A compiled matcher for the regex: case-insensitive, unanchored, as Tracker Radar specifies.
    package func matcher() throws(ParseError) -> Matcher {
        var builder = Matcher.Builder()
        let start = try builder.compile(alternatives: alternatives, next: builder.addMatch())
        return Matcher(states: builder.states, start: start)
    }

    /// A regex compiled into NFA states.
    package struct Matcher: Sendable {
        enum State: Sendable {
            /// Consume one byte in the (case-folded) set, then go to `next`.
            case byte(CharacterSet128, next: Int)
            /// Go to both.
            case split(Int, Int)
            /// Only at position 0.
            case start(next: Int)
            /// Only at the end of the input.
            case end(next: Int)
            case match
        }

        let states: [State]
        let start: Int

        /// Whether the regex matches somewhere in `text`.
        package func matches(_ text: String) -> Bool {
            var text = text
            return text.withUTF8 { matches($0) }
        }

        /// Whether the regex matches somewhere in the bytes.
        package func matches(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            var current: [Int] = []
            var next: [Int] = []
            var seen = [Int](repeating: -1, count: states.count)
            current.reserveCapacity(states.count)
            next.reserveCapacity(states.count)
            // Generation numbers mark which states are already in a list for a position.
            var generation = 0
            for position in 0...bytes.count {
                // Unanchored: a match may start at every position.
                if add(start, at: position, count: bytes.count, to: &current, seen: &seen, generation: generation) {
                    return true
                }
                guard position < bytes.count else { break }
                let byte = bytes[position]
                generation += 1
                next.removeAll(keepingCapacity: true)
                for index in current {
                    guard case .byte(let set, let target) = states[index], set.contains(byte) else { continue }
                    if add(target, at: position + 1, count: bytes.count, to: &next, seen: &seen, generation: generation) {
                        return true
                    }
                }
                swap(&current, &next)
            }
            return false
        }

        /// Adds `state` and what it reaches without consuming input; true when that reaches a match.
        private func add(
            _ state: Int, at position: Int, count: Int, to list: inout [Int], seen: inout [Int], generation: Int
        ) -> Bool {
            var stack = [state]
            while let index = stack.popLast() {
                guard seen[index] != generation else { continue }
                seen[index] = generation
                switch states[index] {
                case .match: return true
                case .byte: list.append(index)
                case .split(let first, let second):
                    stack.append(second)
                    stack.append(first)
                case .start(let next): if position == 0 { stack.append(next) }
                case .end(let next): if position == count { stack.append(next) }
                }
            }
            return false
        }

        /// Thompson's construction, back to front: each node is compiled knowing where it continues.
        struct Builder {
            var states: [State] = []

            mutating func addMatch() -> Int {
                append(.match)
            }

            mutating func append(_ state: State) -> Int {
                states.append(state)
                return states.count - 1
            }

            mutating func compile(alternatives: [[Node]], next: Int) throws(ParseError) -> Int {
                var entries: [Int] = []
                for alternative in alternatives { entries.append(try compile(sequence: alternative, next: next)) }
                guard var entry = entries.last else { return next }
                for other in entries.dropLast().reversed() { entry = append(.split(other, entry)) }
                return entry
            }

            mutating func compile(sequence: [Node], next: Int) throws(ParseError) -> Int {
                var entry = next
                for node in sequence.reversed() { entry = try compile(node, next: entry) }
                return entry
            }

            mutating func compile(_ node: Node, next: Int) throws(ParseError) -> Int {
                guard states.count < TrackerRuleRegex.maximumStateCount else {
                    throw ParseError(reason: "too large to match (counted repetitions unroll into over \(TrackerRuleRegex.maximumStateCount) states)", offset: 0)
                }
                switch node {
                case .character(let set):
                    return append(.byte(set.caseFolded, next: next))
                case .startAnchor:
                    return append(.start(next: next))
                case .endAnchor:
                    return append(.end(next: next))
                case .group(let alternatives):
                    return try compile(alternatives: alternatives, next: next)
                case .repetition(let atom, let minimum, let maximum):
                    var entry: Int
                    if let maximum {
                        entry = try optionalChain(atom, count: maximum - minimum, next: next)
                        for _ in 0..<minimum { entry = try compile(atom, next: entry) }
                        return entry
                    }
                    // A loop: a split into the body, whose end comes back to the split.
                    let loop = append(.split(next, next))
                    let body = try compile(atom, next: loop)
                    states[loop] = .split(body, next)
                    if minimum == 0 { return loop }
                    // x+ enters through the body; x{n,} has n - 1 more copies in front.
                    entry = body
                    for _ in 1..<minimum { entry = try compile(atom, next: entry) }
                    return entry
                }
            }

            /// `count` nested optional copies of `atom` before `next`.
            private mutating func optionalChain(_ atom: Node, count: Int, next: Int) throws(ParseError) -> Int {
                var entry = next
                for _ in 0..<count {
                    let body = try compile(atom, next: entry)
                    entry = append(.split(body, next))
                }
                return entry
            }
        }
    }
}
