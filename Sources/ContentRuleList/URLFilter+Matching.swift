extension URLFilter {
    /// The matcher compiled from the terms at initialization.
    ///
    /// The URL is read byte by byte followed by the virtual end-of-URL character 0 (what `$`
    /// consumes), and the match succeeds as soon as a final state is reached, as in WebKit's DFA
    /// interpreter. Three automata with that meaning, all free of backtracking:
    /// - up to 63 character-set occurrences, a bit-parallel position (Glushkov) automaton, one
    ///   machine word of state and no allocation;
    /// - beyond that, when no quantifier applies to a group of several terms (long literals,
    ///   `a.*b.*c…`, `[a-z][a-z]…`), the same automaton over as many words as it needs, each
    ///   character costing a few operations per 64 positions that can be active;
    /// - otherwise a Thompson automaton simulated with a sparse state list (Pike), linear in
    ///   URL length times the number of live states.
    /// A required literal, when the pattern has one, rejects most URLs before any runs.
    ///
    /// The tables live in memory owned by ``Storage`` (freed in its `deinit`), so that matching
    /// does no reference counting: with thousands of filters per URL, retains dominated otherwise.
    struct Automaton {
        private enum Engine {
            case positions(PositionAutomaton)
            case sequence(SequenceAutomaton)
            case thompson(ThompsonAutomaton)
            case everything
        }

        /// Which automaton matches, for tests: `positions`, `sequence`, `thompson` or `everything`.
        var kind: String {
            switch engine {
            case .positions: "positions"
            case .sequence: "sequence"
            case .thompson: "thompson"
            case .everything: "everything"
            }
        }

        private let engine: Engine
        private let literal: RequiredLiteral?

        init(terms: [Term], matchesEverything: Bool, allowsPositionAutomaton: Bool = true) {
            if matchesEverything {
                engine = .everything
                literal = nil
                return
            }
            if allowsPositionAutomaton, let positions = PositionAutomaton(terms: terms) {
                engine = .positions(positions)
            } else if allowsPositionAutomaton, let sequence = SequenceAutomaton(terms: terms) {
                engine = .sequence(sequence)
            } else {
                engine = .thompson(ThompsonAutomaton(terms: terms))
            }
            literal = RequiredLiteral(terms: terms)
        }

        /// The literal every match contains, lowercased.
        var requiredLiteral: [UInt8]? { literal?.lowercased }

        func matches(_ url: UnsafeBufferPointer<UInt8>) -> Bool {
            if let literal, !literal.occurs(in: url) { return false }
            switch engine {
            case .positions(let automaton): return automaton.matches(url)
            case .sequence(let automaton): return automaton.matches(url)
            case .thompson(let automaton): return automaton.matches(url)
            case .everything: return true
            }
        }

        /// Frees the tables; called once, by the owner.
        func deallocate() {
            literal?.deallocate()
            switch engine {
            case .positions(let automaton): automaton.deallocate()
            case .sequence(let automaton): automaton.deallocate()
            case .thompson(let automaton): automaton.deallocate()
            case .everything: break
            }
        }
    }

    /// The parsed filter and its automaton, shared by copies of a ``URLFilter``.
    final class Storage: @unchecked Sendable {
        // Unchecked: every property is immutable after init, and the automaton's tables are
        // written only in init and freed only in deinit.
        let pattern: String
        let terms: [Term]
        let automaton: Automaton

        init(pattern: String, terms: [Term], automaton: Automaton) {
            self.pattern = pattern
            self.terms = terms
            self.automaton = automaton
        }

        deinit { automaton.deallocate() }
    }
}

/// An immutable copy of an array in memory its owner frees explicitly; reading it involves no
/// reference counting and no bounds check. Indices come from the owner's own construction (or
/// its checked file), never from input.
package struct OwnedBuffer<Element>: @unchecked Sendable {
    // Unchecked: the memory is written once, in `init`, and freed once, by the owner.
    private let base: UnsafeMutablePointer<Element>
    package let count: Int

    package init(_ array: [Element]) {
        count = array.count
        base = UnsafeMutablePointer<Element>.allocate(capacity: max(array.count, 1))
        array.withUnsafeBufferPointer { source in
            if let address = source.baseAddress { base.initialize(from: address, count: source.count) }
        }
    }

    package subscript(index: Int) -> Element {
        @inline(__always) get { base[index] }
    }

    var array: [Element] { Array(UnsafeBufferPointer(start: base, count: count)) }

    /// The address of element `index`, to read a run of elements in place.
    func address(of index: Int) -> UnsafePointer<Element> { UnsafePointer(base + index) }

    package func deallocate() {
        base.deinitialize(count: count)
        base.deallocate()
    }
}

// MARK: - Character sets as matched

extension Term.CharacterSet {
    /// The characters the set matches (inversion applied), as two words over 0…127.
    package var matchedWords: (low: UInt64, high: UInt64) {
        guard isInverted else { return (low, high) }
        // 1…127 minus the listed characters; never 0, the end of the URL.
        return (~low & ~UInt64(1), ~high)
    }
}

// MARK: - Required literal

/// A run of single characters every match must contain, searched for first (Horspool).
private struct RequiredLiteral {
    /// The characters, lowercased where case folds.
    private let bytes: OwnedBuffer<UInt8>
    /// 0x20 where the character is a letter matched in both cases, else 0.
    private let foldBits: OwnedBuffer<UInt8>
    /// Horspool's shift per URL byte: how far the literal may move when that byte is under its
    /// last character. Both cases of a letter share the smaller shift, which keeps it safe.
    private let shifts: OwnedBuffer<UInt8>

    /// The longest literal searched for: any part of a required run is required too, and
    /// Horspool's worst case grows with the literal's length times the URL's.
    static let maximumLength = 64

    /// The longest run (two or more) of top-level, unquantified, one-character terms, cut to
    /// ``maximumLength``.
    init?(terms: [Term]) {
        var best = 0..<0
        var runStart = 0
        var characters: [(UInt8, UInt8)?] = []
        characters.reserveCapacity(terms.count)
        for (index, term) in terms.enumerated() {
            var character: (UInt8, UInt8)?
            if term.quantifier == .one, case .characterSet(let set) = term.atom {
                character = Self.single(set)
            }
            characters.append(character)
            if character == nil {
                runStart = index + 1
            } else if index + 1 - runStart > best.count {
                best = runStart..<(index + 1)
            }
        }
        guard best.count >= 2 else { return nil }
        best = best.lowerBound..<min(best.upperBound, best.lowerBound + Self.maximumLength)
        let literal = characters[best].map { $0?.0 ?? 0 }
        bytes = OwnedBuffer(literal)
        foldBits = OwnedBuffer(characters[best].map { $0?.1 ?? 0 })
        let length = literal.count
        var table = [UInt8](repeating: UInt8(min(length, 255)), count: 256)
        for (index, byte) in literal.enumerated().dropLast() {
            let shift = UInt8(min(length - 1 - index, 255))
            let isLetter = (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A
            for variant in isLetter ? [byte | 0x20, byte & ~0x20] : [byte] {
                table[Int(variant)] = min(table[Int(variant)], shift)
            }
        }
        shifts = OwnedBuffer(table)
    }

    /// The characters with letters lowercased.
    var lowercased: [UInt8] {
        bytes.array.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
    }

    func deallocate() {
        bytes.deallocate()
        foldBits.deallocate()
        shifts.deallocate()
    }

    /// The byte and fold bit of a set that matches one character, or one letter in both cases.
    private static func single(_ set: Term.CharacterSet) -> (UInt8, UInt8)? {
        let words = set.matchedWords
        let count = words.low.nonzeroBitCount + words.high.nonzeroBitCount
        guard words.low & 1 == 0, count == 1 || count == 2 else { return nil }
        // Lowest and highest member of the (one- or two-character) set.
        let first = words.low != 0 ? UInt8(words.low.trailingZeroBitCount) : UInt8(64 + words.high.trailingZeroBitCount)
        let last = words.high != 0 ? UInt8(127 - words.high.leadingZeroBitCount) : UInt8(63 - words.low.leadingZeroBitCount)
        if count == 1 { return (first, 0) }
        let upper = first, lower = last
        guard upper >= 0x41, upper <= 0x5A, lower == upper | 0x20 else { return nil }
        return (lower, 0x20)
    }

    func occurs(in url: UnsafeBufferPointer<UInt8>) -> Bool {
        let length = bytes.count
        guard url.count >= length else { return false }
        let last = length - 1
        let lastByte = bytes[last], lastFold = foldBits[last]
        var end = last
        while end < url.count {
            let byte = url[end]
            if byte | lastFold == lastByte {
                let start = end - last
                var k = 0
                while k < last && url[start + k] | foldBits[k] == bytes[k] { k += 1 }
                if k == last { return true }
            }
            end += Int(shifts[Int(byte)])
        }
        return false
    }
}

// MARK: - Position (Glushkov) automaton

/// States are the character-set occurrences of the pattern ("positions"), plus position 0 for
/// the start; reading a character moves to every position that can follow an active one and
/// whose set contains the character. No empty transitions, so one word holds the whole state.
private struct PositionAutomaton {
    /// Positions that can follow each position.
    private let follow: OwnedBuffer<UInt64>
    /// Byte → index in `classMasks`.
    private let byteClass: OwnedBuffer<UInt8>
    /// For each byte class, the positions whose set contains those bytes.
    private let classMasks: OwnedBuffer<UInt64>
    /// Positions that end a match.
    private let finalPositions: UInt64

    /// Nil when the pattern has more than 63 positions.
    init?(terms: [Term]) {
        var builder = Builder()
        guard builder.countPositions(terms) <= 63 else { return nil }
        let whole = builder.fragment(terms)
        builder.follow[0] = whole.first
        follow = OwnedBuffer(builder.follow)
        finalPositions = whole.last | (whole.isNullable ? 1 : 0)

        // For each character 0…127, the positions whose set contains it (128…255: none), built
        // by walking each set's members once.
        var positionsOf = [UInt64](repeating: 0, count: 128)
        for (position, set) in builder.sets.enumerated() where position > 0 {
            let words = set.matchedWords
            let bit: UInt64 = 1 << UInt64(position)
            var low = words.low
            while low != 0 {
                positionsOf[low.trailingZeroBitCount] |= bit
                low &= low - 1
            }
            var high = words.high
            while high != 0 {
                positionsOf[64 + high.trailingZeroBitCount] |= bit
                high &= high - 1
            }
        }
        // Characters with the same positions share a class; class 0 is "no position" (which
        // bytes 128…255 are). Patterns have few distinct classes, so a linear search is enough.
        var masks: [UInt64] = [0]
        var classes = [UInt8](repeating: 0, count: 256)
        for character in 0..<128 {
            let mask = positionsOf[character]
            if let existing = masks.firstIndex(of: mask) {
                classes[character] = UInt8(existing)
            } else {
                classes[character] = UInt8(masks.count)
                masks.append(mask)
            }
        }
        byteClass = OwnedBuffer(classes)
        classMasks = OwnedBuffer(masks)
    }

    func deallocate() {
        follow.deallocate()
        byteClass.deallocate()
        classMasks.deallocate()
    }

    private struct Fragment {
        var first: UInt64 = 0
        var last: UInt64 = 0
        var isNullable = true
    }

    private struct Builder {
        var sets: [Term.CharacterSet] = [Term.CharacterSet()]
        var follow: [UInt64] = [0]

        func countPositions(_ terms: [Term]) -> Int {
            terms.reduce(0) { count, term in
                switch term.atom {
                case .characterSet: count + 1
                case .group(let inner): count + countPositions(inner)
                }
            }
        }

        mutating func fragment(_ terms: [Term]) -> Fragment {
            var result = Fragment()
            for term in terms {
                let next = fragment(term)
                addFollow(from: result.last, to: next.first)
                result = Fragment(
                    first: result.first | (result.isNullable ? next.first : 0),
                    last: next.last | (next.isNullable ? result.last : 0),
                    isNullable: result.isNullable && next.isNullable
                )
            }
            return result
        }

        mutating func fragment(_ term: Term) -> Fragment {
            var atom: Fragment
            switch term.atom {
            case .characterSet(let set):
                let position = sets.count
                sets.append(set)
                follow.append(0)
                atom = Fragment(first: 1 << UInt64(position), last: 1 << UInt64(position), isNullable: false)
            case .group(let inner):
                atom = fragment(inner)
            }
            switch term.quantifier {
            case .one:
                break
            case .zeroOrOne:
                atom.isNullable = true
            case .zeroOrMore:
                addFollow(from: atom.last, to: atom.first)
                atom.isNullable = true
            case .oneOrMore:
                addFollow(from: atom.last, to: atom.first)
            }
            return atom
        }

        mutating func addFollow(from sources: UInt64, to targets: UInt64) {
            var remaining = sources
            while remaining != 0 {
                follow[remaining.trailingZeroBitCount] |= targets
                remaining &= remaining - 1
            }
        }
    }

    func matches(_ url: UnsafeBufferPointer<UInt8>) -> Bool {
        var state: UInt64 = 1
        var index = 0
        while index <= url.count {
            let byte = index < url.count ? url[index] : 0
            var next: UInt64 = 0
            var active = state
            while active != 0 {
                next |= follow[active.trailingZeroBitCount]
                active &= active - 1
            }
            state = next & classMasks[Int(byteClass[Int(byte)])]
            if state & finalPositions != 0 { return true }
            if state == 0 { return false }
            index += 1
        }
        return false
    }
}

// MARK: - Sequence automaton

/// The position automaton of a pattern that is a sequence of quantified character sets (after
/// inlining unquantified groups, and groups around a single set), with no limit on its length.
///
/// Bit `p` of the state is "the p-th set just matched" (bit 0: nothing read yet). In such a
/// sequence a position is followed by the next one, by every later one up to the first that
/// cannot be skipped, and by itself when it repeats, so one character is a shift, an addition
/// that carries the state across runs of skippable positions, and masks: a few operations per
/// word, and only the words up to the highest active one are touched.
private struct SequenceAutomaton {
    /// Words per state vector: positions 0…count and the bit after the last.
    private let words: Int
    /// Positions that may be skipped (`?`, `*`).
    private let skippable: OwnedBuffer<UInt64>
    /// Positions that may repeat (`*`, `+`).
    private let repeating: OwnedBuffer<UInt64>
    /// Positions after which only skippable ones follow: a match.
    private let finals: OwnedBuffer<UInt64>
    /// Byte → index of its mask in `classMasks`.
    private let byteClass: OwnedBuffer<UInt16>
    /// For each byte class, `words` words: the positions whose set contains those bytes.
    private let classMasks: OwnedBuffer<UInt64>

    /// Nil when a quantifier applies to a group of more than one term.
    init?(terms: [Term]) {
        guard let sequence = Self.flatten(terms) else { return nil }
        let count = sequence.count
        let words = (count + 2 + 63) / 64
        self.words = words
        var skippable = [UInt64](repeating: 0, count: words)
        var repeating = [UInt64](repeating: 0, count: words)
        var finals = [UInt64](repeating: 0, count: words)
        var positionsOf = [[UInt64]](repeating: [UInt64](repeating: 0, count: words), count: 128)
        var allSkippableAfter = true
        for index in stride(from: count - 1, through: 0, by: -1) {
            let (set, quantifier) = sequence[index]
            let position = index + 1
            let word = position / 64, bit = UInt64(1) << UInt64(position % 64)
            if allSkippableAfter { finals[word] |= bit }
            switch quantifier {
            case .one: allSkippableAfter = false
            case .zeroOrOne: skippable[word] |= bit
            case .zeroOrMore: skippable[word] |= bit; repeating[word] |= bit
            case .oneOrMore: repeating[word] |= bit; allSkippableAfter = false
            }
            var low = set.low
            while low != 0 {
                positionsOf[low.trailingZeroBitCount][word] |= bit
                low &= low - 1
            }
            var high = set.high
            while high != 0 {
                positionsOf[64 + high.trailingZeroBitCount][word] |= bit
                high &= high - 1
            }
        }
        // Characters with the same positions share a mask; class 0 (bytes 128…255) has none.
        var masks: [[UInt64]] = [[UInt64](repeating: 0, count: words)]
        var indexOfMask: [[UInt64]: UInt16] = [masks[0]: 0]
        var classes = [UInt16](repeating: 0, count: 256)
        for character in 0..<128 {
            let mask = positionsOf[character]
            if let existing = indexOfMask[mask] {
                classes[character] = existing
            } else {
                classes[character] = UInt16(masks.count)
                indexOfMask[mask] = UInt16(masks.count)
                masks.append(mask)
            }
        }
        self.skippable = OwnedBuffer(skippable)
        self.repeating = OwnedBuffer(repeating)
        self.finals = OwnedBuffer(finals)
        byteClass = OwnedBuffer(classes)
        classMasks = OwnedBuffer(masks.flatMap { $0 })
    }

    func deallocate() {
        skippable.deallocate()
        repeating.deallocate()
        finals.deallocate()
        byteClass.deallocate()
        classMasks.deallocate()
    }

    /// The sets and quantifiers in order, or nil when a quantified group holds several terms.
    private static func flatten(_ terms: [Term]) -> [(set: (low: UInt64, high: UInt64), quantifier: Term.Quantifier)]? {
        var sequence: [(set: (low: UInt64, high: UInt64), quantifier: Term.Quantifier)] = []
        func append(_ terms: [Term], under outer: Term.Quantifier) -> Bool {
            for term in terms {
                switch term.atom {
                case .characterSet(let set):
                    sequence.append((set.matchedWords, combined(term.quantifier, under: outer)))
                case .group(let inner):
                    if term.quantifier == .one && outer == .one {
                        guard append(inner, under: .one) else { return false }
                    } else {
                        // A quantified group is one position only when it holds one set.
                        guard inner.count == 1, case .characterSet = inner[0].atom, terms.count == 1 || outer == .one
                        else { return false }
                        guard append(inner, under: combined(term.quantifier, under: outer)) else { return false }
                    }
                }
            }
            return true
        }
        return append(terms, under: .one) ? sequence : nil
    }

    /// The quantifier of `(x inner) outer` as one quantifier on x: `(a?)+` is `a*`.
    private static func combined(_ inner: Term.Quantifier, under outer: Term.Quantifier) -> Term.Quantifier {
        if outer == .one { return inner }
        if inner == .one || inner == outer { return outer }
        return .zeroOrMore
    }

    func matches(_ url: UnsafeBufferPointer<UInt8>) -> Bool {
        let words = self.words
        return withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 2 * words) { scratch in
            guard let base = scratch.baseAddress else { return false }
            var state = base, next = base + words
            base.initialize(repeating: 0, count: 2 * words)
            state[0] = 1
            // The highest word that may be nonzero in `state` and in `next` (-1: none).
            var highest = 0, spareHighest = -1
            var index = 0
            while index <= url.count {
                let byte = index < url.count ? url[index] : 0
                let masks = classMasks.address(of: Int(byteClass[Int(byte)]) * words)
                var shifted: UInt64 = 0, carry: UInt64 = 0
                var nextHighest = -1, live = false, matched = false
                var word = 0
                // Past highest + 1 the state is zero, so only a pending carry writes anything.
                while word < words && (word <= highest + 1 || carry != 0) {
                    let current = state[word]
                    let reached = current << 1 | shifted
                    shifted = current >> 63
                    let skip = skippable[word]
                    let (sum, overflow) = (reached & skip).addingReportingOverflow(skip)
                    let (total, overflow2) = sum.addingReportingOverflow(carry)
                    carry = overflow || overflow2 ? 1 : 0
                    let value = (reached | (total ^ skip) | (current & repeating[word])) & masks[word]
                    next[word] = value
                    if value != 0 {
                        nextHighest = word
                        live = true
                        if value & finals[word] != 0 { matched = true }
                    }
                    word += 1
                }
                if matched { return true }
                if !live { return false }
                // Clear what the state before last left above the words just written.
                var stale = word
                while stale <= spareHighest {
                    next[stale] = 0
                    stale += 1
                }
                swap(&state, &next)
                spareHighest = highest
                highest = nextHighest
                index += 1
            }
            return false
        }
    }
}

// MARK: - Thompson automaton

/// A classic Thompson construction: character instructions, empty splits and jumps, one match
/// instruction; simulated breadth-first so that every instruction is visited once per character.
private struct ThompsonAutomaton {
    private enum Operation: UInt8, Sendable {
        /// Consume a character of `sets[a]`, continue at the next instruction.
        case character
        /// Continue at both `a` and `b`.
        case split
        /// Continue at `a`.
        case jump
        /// The pattern has matched.
        case match
    }

    private struct Instruction: Sendable {
        var operation: Operation
        var a: Int32
        var b: Int32
    }

    private let program: OwnedBuffer<Instruction>
    private let setsLow: OwnedBuffer<UInt64>
    private let setsHigh: OwnedBuffer<UInt64>

    init(terms: [Term]) {
        var compiler = Compiler()
        for term in terms { compiler.emit(term) }
        compiler.instructions.append(Instruction(operation: .match, a: 0, b: 0))
        program = OwnedBuffer(compiler.instructions)
        setsLow = OwnedBuffer(compiler.setsLow)
        setsHigh = OwnedBuffer(compiler.setsHigh)
    }

    func deallocate() {
        program.deallocate()
        setsLow.deallocate()
        setsHigh.deallocate()
    }

    private struct Compiler {
        var instructions: [Instruction] = []
        var setsLow: [UInt64] = []
        var setsHigh: [UInt64] = []

    var nextAddress: Int32 { Int32(instructions.count) }

    mutating func emit(_ term: Term) {
        switch term.quantifier {
        case .one:
            emitAtom(term.atom)
        case .zeroOrOne:
            let split = instructions.count
            instructions.append(Instruction(operation: .split, a: nextAddress + 1, b: 0))
            emitAtom(term.atom)
            instructions[split].b = nextAddress
        case .zeroOrMore:
            let split = instructions.count
            instructions.append(Instruction(operation: .split, a: nextAddress + 1, b: 0))
            emitAtom(term.atom)
            instructions.append(Instruction(operation: .jump, a: Int32(split), b: 0))
            instructions[split].b = nextAddress
        case .oneOrMore:
            let start = nextAddress
            emitAtom(term.atom)
            instructions.append(Instruction(operation: .split, a: start, b: nextAddress + 1))
        }
    }

    mutating func emitAtom(_ atom: Term.Atom) {
        switch atom {
        case .characterSet(let set):
            let words = set.matchedWords
            instructions.append(Instruction(operation: .character, a: Int32(setsLow.count), b: 0))
            setsLow.append(words.low)
            setsHigh.append(words.high)
        case .group(let terms):
            for term in terms { emit(term) }
        }
    }

    }

    func matches(_ url: UnsafeBufferPointer<UInt8>) -> Bool {
        let count = program.count
        // marks | current list | next list | work stack (each visited split pushes two)
        return withUnsafeTemporaryAllocation(of: Int32.self, capacity: 5 * count + 1) { scratch in
            guard let base = scratch.baseAddress else { return false }
            let marks = base
            var current = base + count
            var next = base + 2 * count
            let stack = base + 3 * count
            marks.initialize(repeating: -1, count: count)
            var matched = false
            /// Adds `start` and everything reachable from it without reading to `list`.
            func addThread(_ start: Int32, to list: UnsafeMutablePointer<Int32>, count listCount: inout Int, generation: Int32) {
                stack[0] = start
                var depth = 1
                while depth > 0 {
                    depth -= 1
                    let pc = Int(stack[depth])
                    if marks[pc] == generation { continue }
                    marks[pc] = generation
                    let instruction = program[pc]
                    switch instruction.operation {
                    case .character:
                        list[listCount] = Int32(pc)
                        listCount += 1
                    case .split:
                        stack[depth] = instruction.b
                        stack[depth + 1] = instruction.a
                        depth += 2
                    case .jump:
                        stack[depth] = instruction.a
                        depth += 1
                    case .match:
                        matched = true
                    }
                }
            }

            var currentCount = 0
            var generation: Int32 = 0
            addThread(0, to: current, count: &currentCount, generation: generation)
            if matched { return true }
            var index = 0
            while index <= url.count {
                let byte = index < url.count ? url[index] : 0
                generation &+= 1
                var nextCount = 0
                for slot in 0..<currentCount {
                    let pc = Int(current[slot])
                    let set = Int(program[pc].a)
                    let isMember: Bool
                    if byte < 64 {
                        isMember = setsLow[set] & (1 << UInt64(byte)) != 0
                    } else if byte < 128 {
                        isMember = setsHigh[set] & (1 << UInt64(byte - 64)) != 0
                    } else {
                        isMember = false
                    }
                    if isMember {
                        addThread(Int32(pc + 1), to: next, count: &nextCount, generation: generation)
                    }
                }
                if matched { return true }
                if nextCount == 0 { return false }
                swap(&current, &next)
                currentCount = nextCount
                index += 1
            }
            return false
        }
    }
}
