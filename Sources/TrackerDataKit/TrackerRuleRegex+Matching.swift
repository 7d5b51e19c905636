import TrackerlessCore

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
        let (literal, isWholePattern) = requiredLiteral()
        return Matcher(states: builder.states, start: start, requiredLiteral: literal, isLiteral: isWholePattern)
    }

    /// The longest run of plain characters every match contains, as lowercase bytes, and whether
    /// that run is the whole pattern (then finding it is the match). Empty when there is none.
    ///
    /// A plain character is a node matching exactly one byte up to ASCII case (`a`, `\.`, `/`), so
    /// the run is found in the lowercased URL exactly where the pattern's characters match.
    func requiredLiteral() -> (bytes: [UInt8], isWholePattern: Bool) {
        guard alternatives.count == 1 else { return ([], false) }
        var best: [UInt8] = []
        var run: [UInt8] = []
        var isWhole = true
        // Groups of one alternative are read in place; any other node ends the run.
        func visit(_ sequence: [Node]) {
            for node in sequence {
                switch node {
                case .character(let set):
                    if let byte = Self.plainByte(set.caseFolded) {
                        run.append(byte)
                        continue
                    }
                case .group(let alternatives) where alternatives.count == 1:
                    visit(alternatives[0])
                    continue
                default:
                    break
                }
                isWhole = false
                if run.count > best.count { best = run }
                run.removeAll(keepingCapacity: true)
            }
        }
        visit(alternatives[0])
        if run.count > best.count { best = run }
        return (best, isWhole && !best.isEmpty)
    }

    /// The lowercase byte of a case-folded set that matches one byte up to ASCII case, else nil.
    package static func plainByte(_ set: CharacterSet128) -> UInt8? {
        guard set.low != 0 || set.high != 0 else { return nil }
        let first = set.low != 0 ? UInt8(set.low.trailingZeroBitCount) : UInt8(64 + set.high.trailingZeroBitCount)
        let lower = ASCII.lowercased(first)
        return set == CharacterSet128.single(lower).caseFolded ? lower : nil
    }

    /// A regex compiled into NFA states.
    package struct Matcher: Sendable {
        /// One NFA state.
        package enum State: Sendable {
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

        /// The states in the order Thompson's construction builds them, back to front: the match
        /// state is the first, and the only one. The user scripts write them out for blocking.js
        /// (`RuleProgram`), so that the script runs this automaton and no copy of it.
        package let states: [State]
        /// The state matching starts from, at every position.
        package let start: Int
        /// Lowercase bytes every match contains (see ``TrackerRuleRegex/requiredLiteral()``).
        package let requiredLiteral: [UInt8]
        /// Whether containing ``requiredLiteral`` is the whole match.
        let isLiteral: Bool

        init(states: [State], start: Int, requiredLiteral: [UInt8] = [], isLiteral: Bool = false) {
            self.states = states
            self.start = start
            self.requiredLiteral = requiredLiteral
            self.isLiteral = isLiteral
        }

        /// Whether the regex matches somewhere in `text`.
        package func matches(_ text: String) -> Bool {
            var text = text
            return text.withUTF8 { bytes in
                withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(1, bytes.count)) { lowered in
                    for index in bytes.indices { lowered[index] = ASCII.lowercased(bytes[index]) }
                    return matches(bytes, lowercased: UnsafeBufferPointer(rebasing: lowered[0..<bytes.count]))
                }
            }
        }

        /// Whether the regex matches somewhere in the bytes.
        package func matches(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            simulate(bytes)
        }

        /// Whether the regex matches somewhere in `bytes`, given the same bytes with ASCII letters
        /// lowercased: the required literal is looked for first, and the NFA runs only if it is there.
        package func matches(_ bytes: UnsafeBufferPointer<UInt8>, lowercased: UnsafeBufferPointer<UInt8>) -> Bool {
            if !requiredLiteral.isEmpty {
                let found = requiredLiteral.withUnsafeBufferPointer { Self.contains($0, in: lowercased) }
                if !found { return false }
                if isLiteral { return true }
            }
            return simulate(bytes)
        }

        /// Whether `needle` (not empty) occurs in `haystack`.
        private static func contains(_ needle: UnsafeBufferPointer<UInt8>, in haystack: UnsafeBufferPointer<UInt8>) -> Bool {
            let count = needle.count
            guard count <= haystack.count else { return false }
            let first = needle[0]
            var index = 0
            let last = haystack.count - count
            while index <= last {
                if haystack[index] == first {
                    var offset = 1
                    while offset < count, haystack[index + offset] == needle[offset] { offset += 1 }
                    if offset == count { return true }
                }
                index += 1
            }
            return false
        }

        /// The NFA simulation, in scratch memory of the stack (no allocation for rules of a few
        /// hundred states): current and next state lists, generation marks and the closure stack.
        private func simulate(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            let count = states.count
            return withUnsafeTemporaryAllocation(of: Int.self, capacity: 5 * count + 1) { scratch in
                let base = scratch.baseAddress!
                var current = base
                var next = base + count
                let seen = base + 2 * count
                let stack = base + 3 * count
                seen.initialize(repeating: -1, count: count)
                return states.withUnsafeBufferPointer { states in
                    var currentCount = 0
                    // Generation numbers mark which states are already in a list for a position.
                    var generation = 0
                    for position in 0...bytes.count {
                        // Unanchored: a match may start at every position.
                        if Self.add(
                            start, at: position, count: bytes.count, states: states, to: current, listCount: &currentCount,
                            seen: seen, generation: generation, stack: stack)
                        {
                            return true
                        }
                        guard position < bytes.count else { break }
                        let byte = bytes[position]
                        generation += 1
                        var nextCount = 0
                        for slot in 0..<currentCount {
                            guard case .byte(let set, let target) = states[current[slot]], set.contains(byte) else { continue }
                            if Self.add(
                                target, at: position + 1, count: bytes.count, states: states, to: next, listCount: &nextCount,
                                seen: seen, generation: generation, stack: stack)
                            {
                                return true
                            }
                        }
                        swap(&current, &next)
                        currentCount = nextCount
                    }
                    return false
                }
            }
        }

        /// Adds `state` and what it reaches without consuming input; true when that reaches a match.
        private static func add(
            _ state: Int, at position: Int, count: Int, states: UnsafeBufferPointer<State>, to list: UnsafeMutablePointer<Int>,
            listCount: inout Int, seen: UnsafeMutablePointer<Int>, generation: Int, stack: UnsafeMutablePointer<Int>
        ) -> Bool {
            // Each split pushes two states and is expanded once per generation: at most
            // 2 x states + 1 entries.
            var depth = 1
            stack[0] = state
            while depth > 0 {
                depth -= 1
                let index = stack[depth]
                guard seen[index] != generation else { continue }
                seen[index] = generation
                switch states[index] {
                case .match: return true
                case .byte:
                    list[listCount] = index
                    listCount += 1
                case .split(let first, let second):
                    stack[depth] = second
                    stack[depth + 1] = first
                    depth += 2
                case .start(let next):
                    if position == 0 {
                        stack[depth] = next
                        depth += 1
                    }
                case .end(let next):
                    if position == count {
                        stack[depth] = next
                        depth += 1
                    }
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
