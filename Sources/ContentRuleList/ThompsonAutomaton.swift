/// A classic Thompson construction: character instructions, empty splits and jumps, one match
/// instruction; simulated breadth-first so that every instruction is visited once per character.
struct ThompsonAutomaton {
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
