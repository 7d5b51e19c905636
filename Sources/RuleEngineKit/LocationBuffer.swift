/// The matched action locations of one load: a stack buffer, then the heap if it overflows.
struct LocationBuffer {
    private let storage: UnsafeMutableBufferPointer<UInt32>
    private var count = 0
    private var overflow: [UInt32] = []
    /// Where each matched rule is also noted when the caller asks which rules applied; nil for
    /// a decision, which then pays one untaken branch per match.
    private let namer: UnsafeMutablePointer<RuleMatches>?

    init(_ storage: UnsafeMutableBufferPointer<UInt32>, naming namer: UnsafeMutablePointer<RuleMatches>? = nil) {
        self.storage = storage
        self.namer = namer
    }

    @inline(__always)
    mutating func append(_ location: UInt32) {
        if count < storage.count {
            storage[count] = location
            count += 1
        } else {
            if overflow.isEmpty { overflow = Array(storage[0..<count]) }
            overflow.append(location)
        }
    }

    /// Rule `rule` (an index in ``Program/rules``) matched, for its action at `location`.
    @inline(__always)
    mutating func append(_ location: UInt32, rule: Int) {
        if _slowPath(namer != nil) { namer?.pointee.append(location, rule: rule) }
        append(location)
    }

    /// The universal location at `position` in ``Program/universalLocations``, which every
    /// checked load gets.
    @inline(__always)
    mutating func appendUniversal(_ location: UInt32, position: Int) {
        if _slowPath(namer != nil) { namer?.pointee.appendUniversal(location, position: position) }
        append(location)
    }

    /// Calls `body` with the locations sorted, each once.
    mutating func withSortedUniqueLocations<Result>(_ body: (UnsafeBufferPointer<UInt32>) -> Result) -> Result {
        if !overflow.isEmpty {
            let unique = Array(Set(overflow)).sorted()
            return unique.withUnsafeBufferPointer(body)
        }
        // Insertion sort: loads match a handful of rules.
        var unique = 0
        for index in 0..<count {
            let value = storage[index]
            var position = unique
            var isDuplicate = false
            while position > 0 && storage[position - 1] >= value {
                if storage[position - 1] == value {
                    isDuplicate = true
                    break
                }
                position -= 1
            }
            guard !isDuplicate else { continue }
            var move = unique
            while move > position {
                storage[move] = storage[move - 1]
                move -= 1
            }
            storage[position] = value
            unique += 1
        }
        return body(UnsafeBufferPointer(rebasing: storage[0..<unique]))
    }
}
