// Finds the host-indexed rules and conditions whose host appears where their pattern allows it:
// the suffixes of each segment of the URL's authority, hashed from right to left, are looked up
// in a table whose values say which prefix and final dot each entry's pattern allows.

/// The lookups of a URL's authority in a table of ``HostPattern`` values.
///
/// A segment runs from the authority's start or a `:` to the next `:` or `/` (or the URL's end).
/// A pattern's host ends a segment, or ends one character before it when that character is the
/// final dot the pattern allows. Where the host may start depends on the pattern's prefix:
///
/// - ``HostPattern/Prefix/none``: at the authority's start;
/// - ``HostPattern/Prefix/subdomains`` (`([^:/]+\.)?`): there, or after a `.` at least two
///   characters in, in the first segment only;
/// - ``HostPattern/Prefix/subdomainsOrUserinfo`` (`([^/]+[.@])?`): there, or after a `.` or `@`
///   at least two characters in, in any segment;
/// - ``HostPattern/Prefix/userinfo`` (`([^/]*@)?`): there, or after any `@`.
///
/// That is each pattern's meaning on any URL string, canonical or not: `[^:/]` and `[^/]` do not
/// match `/`, NUL or non-ASCII bytes, where the authority's run ends.
enum HostProbe {
    /// Calls `body` with the payload of every value of `table` whose host and prefix fit, and the
    /// end of its segment, where the pattern's remainder starts. A value may come more than once.
    @inline(__always)
    static func forEachMatch(
        in url: UnsafeBufferPointer<UInt8>, authority: Range<Int>, table: FrozenSuffixTable, _ body: (UInt32, Int) -> Void
    ) {
        let start = authority.lowerBound
        let runEnd = authority.upperBound
        var segmentStart = start
        while true {
            var segmentEnd = segmentStart
            while segmentEnd < runEnd && url[segmentEnd] != UInt8(ascii: ":") { segmentEnd += 1 }
            // Followed by `:` or `/`, or the URL's end; not by a byte no pattern matches.
            if segmentEnd == url.count || url[segmentEnd] == UInt8(ascii: ":") || url[segmentEnd] == UInt8(ascii: "/") {
                probe(url, start, segmentStart, segmentEnd, segmentEnd, isTrimmed: false, table, body)
                if segmentEnd - segmentStart >= 2 && url[segmentEnd - 1] == UInt8(ascii: ".") {
                    probe(url, start, segmentStart, segmentEnd - 1, segmentEnd, isTrimmed: true, table, body)
                }
            }
            guard segmentEnd < runEnd else { return }
            segmentStart = segmentEnd + 1
        }
    }

    /// Looks up the suffixes of `url[segmentStart..<hostEnd]` that start where a prefix allows.
    @inline(__always)
    private static func probe(
        _ url: UnsafeBufferPointer<UInt8>, _ authorityStart: Int, _ segmentStart: Int, _ hostEnd: Int, _ segmentEnd: Int,
        isTrimmed: Bool, _ table: FrozenSuffixTable, _ body: (UInt32, Int) -> Void
    ) {
        let isFirstSegment = segmentStart == authorityStart
        var hash = SuffixTable.seed
        var position = hostEnd
        while position > segmentStart {
            position -= 1
            hash = SuffixTable.step(hash, url[position])
            // The prefixes allowed at `position`, as bits 1 << Prefix.rawValue.
            let prefixes: UInt32
            if position == authorityStart {
                prefixes = 0b1111
            } else {
                let before = url[position - 1]
                let deepEnough = position >= authorityStart + 2
                if before == UInt8(ascii: ".") {
                    prefixes = deepEnough ? (isFirstSegment ? 0b0110 : 0b0100) : 0
                } else if before == UInt8(ascii: "@") {
                    prefixes = deepEnough ? 0b1100 : 0b1000
                } else {
                    prefixes = 0
                }
            }
            guard prefixes != 0, table.mayContain(hash) else { continue }
            for index in table.lookup(hash: hash, url, position, hostEnd) {
                let value = table.values[index]
                guard prefixes & (1 << (value & 3)) != 0, !isTrimmed || value & 4 != 0 else { continue }
                // A host whose letters match only in lowercase: the lookup ignored case.
                if value & 8 != 0 && hasCapital(url, position, hostEnd) { continue }
                body(value >> 4, segmentEnd)
            }
        }
    }

    /// Whether `url[start..<end]` holds a capital letter.
    @inline(__always)
    private static func hasCapital(_ url: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Bool {
        for index in start..<end where url[index] &- 0x41 < 26 { return true }
        return false
    }
}
