/// The skeletons (``URLFilterParser/skeleton(of:)``) found valid while a list's patterns are
/// checked, with the last one as bytes: the url-filters of a built list come in runs that share
/// one skeleton (a tracker's domain rules, then its path rules), so most patterns are settled by
/// writing their skeleton into a reused buffer and comparing it with the last, without making
/// a string of it or hashing it.
struct KnownSkeletons {
    /// Every skeleton found valid so far, with its case flag.
    private var known: Set<PatternKey> = []
    /// The bytes of the skeleton last found valid (or known), and its case flag.
    private var last: [UInt8] = []
    private var lastIsCaseSensitive: Bool?
    /// Where each pattern's skeleton is written, grown to the longest pattern seen.
    private var scratch: [UInt8] = []

    /// Whether `pattern` is valid by its skeleton: the skeleton is the last one, or known, or
    /// parses now (then known). False when the pattern has no skeleton, is longer than
    /// ``URLFilterParser/maximumPatternLength``, or its skeleton fails: the pattern must then be
    /// parsed itself.
    mutating func admits(_ pattern: String, isCaseSensitive: Bool) -> Bool {
        // Read in place; a string without contiguous UTF-8 (a bridged one) is made contiguous.
        let admitted = pattern.utf8.withContiguousStorageIfAvailable { admits(bytes: $0, isCaseSensitive: isCaseSensitive) }
        if let admitted { return admitted }
        var contiguous = pattern
        contiguous.makeContiguousUTF8()
        return admits(contiguous, isCaseSensitive: isCaseSensitive)
    }

    /// ``admits(_:isCaseSensitive:)`` for the pattern's UTF-8 bytes.
    private mutating func admits(bytes: UnsafeBufferPointer<UInt8>, isCaseSensitive: Bool) -> Bool {
        guard bytes.count <= URLFilterParser.maximumPatternLength else { return false }
        if scratch.count < bytes.count { scratch = [UInt8](repeating: 0, count: bytes.count) }
        let written = scratch.withUnsafeMutableBufferPointer { URLFilterParser.write(skeletonOf: bytes, to: $0) }
        guard let count = written else { return false }
        if lastIsCaseSensitive == isCaseSensitive, last.count == count,
           last.withUnsafeBufferPointer({ last in scratch.withUnsafeBufferPointer { last.elementsEqual($0[..<count]) } }) {
            return true
        }
        let skeleton = scratch.withUnsafeBufferPointer { String(decoding: $0[..<count], as: UTF8.self) }
        let key = PatternKey(pattern: skeleton, isCaseSensitive: isCaseSensitive)
        if !known.contains(key) {
            guard (try? URLFilterParser.parse(skeleton, isCaseSensitive: isCaseSensitive)) != nil else { return false }
            known.insert(key)
        }
        last.removeAll(keepingCapacity: true)
        last.append(contentsOf: scratch[..<count])
        lastIsCaseSensitive = isCaseSensitive
        return true
    }
}
