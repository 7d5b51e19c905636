/// The grams of one URL already looked up: a stack buffer, then the heap if it overflows.
struct SeenGrams {
    private let recent: UnsafeMutableBufferPointer<UInt32>
    private var count = 0
    private var more: Set<UInt32> = []

    init(_ recent: UnsafeMutableBufferPointer<UInt32>) {
        self.recent = recent
    }

    /// Adds `gram`; false when it was already there.
    mutating func insert(_ gram: UInt32) -> Bool {
        for index in 0..<count where recent[index] == gram { return false }
        if count < recent.count {
            recent[count] = gram
            count += 1
            return true
        }
        return more.insert(gram).inserted
    }
}
