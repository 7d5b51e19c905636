/// Writes compact, deterministic JSON into a byte buffer.
///
/// Strings escape only `"`, `\` and control characters (never `/`, never non-ASCII), and numbers
/// print as JavaScript's `JSON.stringify` prints them, so equal values always give equal bytes.
/// Use ``writeRaw(_:)`` for punctuation when streaming a document by hand.
public struct JSONWriter: Sendable {
    /// The UTF-8 text written so far.
    public private(set) var bytes: [UInt8]
    /// Whether strings, raw text and repeats are counted in ``countedBytes`` instead of written
    /// (``counting()``).
    private var countsOnly = false
    /// The bytes counted and not kept, by a counting writer.
    private var countedBytes = 0

    /// Creates an empty writer.
    public init() {
        bytes = []
        bytes.reserveCapacity(4096)
    }

    /// Creates an empty writer whose buffer can hold `capacity` bytes without growing.
    public init(capacity: Int) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// A writer that keeps the bytes of strings, raw text and repeats out of ``bytes`` and only
    /// counts them: ``count`` is what the same calls write, without the copies and the escaping
    /// (a rule list's size measured rule by rule). What other methods write is still kept.
    package static func counting() -> JSONWriter {
        var writer = JSONWriter(capacity: 0)
        writer.countsOnly = true
        return writer
    }

    /// Appends `value`, members of objects in their stored order.
    ///
    /// Recurses once per level of nesting; values parsed with ``JSONParser``'s default depth
    /// limit are always safe to write.
    public mutating func write(_ value: JSONValue) {
        switch value {
        case .null:
            writeRaw("null")
        case .bool(let bool):
            writeRaw(bool ? "true" : "false")
        case .number(let number):
            writeNumber(number)
        case .string(let string):
            writeString(string)
        case .array(let elements):
            bytes.append(UInt8(ascii: "["))
            var isFirst = true
            for element in elements {
                if !isFirst { bytes.append(UInt8(ascii: ",")) }
                isFirst = false
                write(element)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let object):
            bytes.append(UInt8(ascii: "{"))
            for index in 0..<min(object.keys.count, object.values.count) {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                writeString(object.keys[index])
                bytes.append(UInt8(ascii: ":"))
                write(object.values[index])
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    /// Appends `string` quoted and escaped.
    public mutating func writeString(_ string: String) {
        if countsOnly {
            var string = string
            countedBytes += 2 + string.withUTF8 { Self.escapedCount(of: $0) }
            return
        }
        bytes.append(UInt8(ascii: "\""))
        let handled: Void? = string.utf8.withContiguousStorageIfAvailable { utf8 in
            appendEscaped(utf8)
        }
        if handled == nil {
            let utf8 = Array(string.utf8)
            utf8.withUnsafeBufferPointer { appendEscaped($0) }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Forgets what was written, keeping the buffer for the next document.
    public mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        countedBytes = 0
    }

    /// The number of bytes written so far, with those a counting writer (`counting()`, for this
    /// package) counted instead of keeping.
    public var count: Int { bytes.count + countedBytes }

    /// Appends again the bytes written at `range` (a range of earlier output), for a value that
    /// repeats.
    public mutating func repeatOutput(_ range: Range<Int>) {
        if countsOnly {
            if range.lowerBound >= 0, range.upperBound <= count { countedBytes += range.count }
            return
        }
        guard range.lowerBound >= 0, range.upperBound <= bytes.count, !range.isEmpty else { return }
        // Through a scratch copy: appending a slice of the array to itself would copy the whole
        // array (the slice shares its storage).
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: range.count) { scratch in
            guard let destination = scratch.baseAddress else { return }
            bytes.withUnsafeBufferPointer { source in
                guard let start = source.baseAddress else { return }
                destination.initialize(from: start + range.lowerBound, count: range.count)
            }
            bytes.append(contentsOf: UnsafeBufferPointer(scratch))
        }
    }

    /// Appends `text` verbatim, for punctuation such as `{`, `,` or `"key":`.
    public mutating func writeRaw(_ text: String) {
        if countsOnly {
            countedBytes += text.utf8.count
            return
        }
        // Literals always have contiguous UTF-8: copy it in one go rather than as a sequence. Most
        // raw text is one punctuation byte, which appends without the general copy's overhead.
        let handled: Void? = text.utf8.withContiguousStorageIfAvailable { utf8 in
            if utf8.count == 1 { bytes.append(utf8[0]) } else { bytes.append(contentsOf: utf8) }
        }
        if handled == nil { bytes.append(contentsOf: text.utf8) }
    }

    /// Appends a number as `JSON.stringify` would: integers without ".0", others in the shortest
    /// form that reads back to the same double, exponents beyond JavaScript's range as `1e+21`;
    /// NaN and infinities, which JSON cannot express, as `null`.
    public mutating func writeNumber(_ number: Double) {
        guard number.isFinite else {
            writeRaw("null")
            return
        }
        if number.rounded(.towardZero) == number, abs(number) < 9.0e18 {
            writeInteger(Int64(number))
            return
        }
        if number < 0 { bytes.append(UInt8(ascii: "-")) }
        appendJavaScriptForm(of: abs(number))
    }

    private mutating func writeInteger(_ value: Int64) {
        // Digits are produced backwards into a stack buffer, then appended in one go.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { buffer in
            var magnitude = value.magnitude
            var start = 20
            repeat {
                start -= 1
                buffer[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            if value < 0 {
                start -= 1
                buffer[start] = UInt8(ascii: "-")
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[start..<20]))
        }
    }

    /// Formats a positive finite double per ECMAScript's Number::toString, from Swift's shortest
    /// round-trip digits.
    private mutating func appendJavaScriptForm(of number: Double) {
        // Swift's description gives the shortest round-trip digits, e.g. "1.5e-07" or "123.456".
        let text = number.description.utf8
        var digits: [UInt8] = []
        var pointPosition = 0
        var exponent = 0
        var seenPoint = false
        var exponentSign = 1
        var inExponent = false
        for byte in text {
            if inExponent {
                if byte == UInt8(ascii: "-") {
                    exponentSign = -1
                } else if byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                    exponent = exponent * 10 + Int(byte - UInt8(ascii: "0"))
                }
            } else if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
                inExponent = true
            } else if byte == UInt8(ascii: ".") {
                seenPoint = true
            } else if byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                digits.append(byte)
                if !seenPoint { pointPosition += 1 }
            }
        }
        pointPosition += exponentSign * exponent
        while let first = digits.first, first == UInt8(ascii: "0") {
            digits.removeFirst()
            pointPosition -= 1
        }
        while let last = digits.last, last == UInt8(ascii: "0") {
            digits.removeLast()
        }
        guard !digits.isEmpty else {
            bytes.append(UInt8(ascii: "0"))
            return
        }
        let k = digits.count
        let n = pointPosition
        if k <= n, n <= 21 {
            bytes.append(contentsOf: digits)
            bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: n - k))
        } else if 0 < n, n <= 21 {
            bytes.append(contentsOf: digits[0..<n])
            bytes.append(UInt8(ascii: "."))
            bytes.append(contentsOf: digits[n...])
        } else if -6 < n, n <= 0 {
            bytes.append(contentsOf: "0.".utf8)
            bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: -n))
            bytes.append(contentsOf: digits)
        } else {
            bytes.append(digits[0])
            if k > 1 {
                bytes.append(UInt8(ascii: "."))
                bytes.append(contentsOf: digits[1...])
            }
            let e = n - 1
            bytes.append(UInt8(ascii: "e"))
            bytes.append(e < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"))
            writeInteger(Int64(abs(e)))
        }
    }

    /// The index of the first control character, `"` or `\\` at or after `start`, or
    /// `utf8.count`; checks eight bytes at a time.
    private static func indexOfSpecialByte(in utf8: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        guard let base = utf8.baseAddress else { return utf8.count }
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        let raw = UnsafeRawPointer(base)
        var index = start
        while index + 8 <= utf8.count {
            let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            // Classic bit tricks: a byte below 0x20, or a byte equal to '"' or '\\'.
            let below = (word &- ones &* 0x20) & ~word & highBits
            let quote = word ^ (ones &* 0x22)
            let backslash = word ^ (ones &* 0x5C)
            let hasQuote = (quote &- ones) & ~quote & highBits
            let hasBackslash = (backslash &- ones) & ~backslash & highBits
            if below | hasQuote | hasBackslash != 0 { break }
            index += 8
        }
        while index < utf8.count {
            let byte = utf8[index]
            if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return index }
            index += 1
        }
        return index
    }

    /// The bytes ``appendEscaped(_:)`` writes for `utf8`: one more for each byte it escapes
    /// with a letter, five more for each it writes as `\u00XX`.
    private static func escapedCount(of utf8: UnsafeBufferPointer<UInt8>) -> Int {
        var count = utf8.count
        var special = indexOfSpecialByte(in: utf8, from: 0)
        while special < utf8.count {
            switch utf8[special] {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), 0x08, 0x0C, 0x0A, 0x0D, 0x09: count += 1
            default: count += 5
            }
            special = indexOfSpecialByte(in: utf8, from: special + 1)
        }
        return count
    }

    private mutating func appendEscaped(_ utf8: UnsafeBufferPointer<UInt8>) {
        // Most strings need no escaping: check quickly, then copy them whole.
        var special = Self.indexOfSpecialByte(in: utf8, from: 0)
        if special == utf8.count {
            bytes.append(contentsOf: utf8)
            return
        }
        // Escape into a scratch buffer (at most six bytes per input byte), then append once. The
        // runs between special bytes are copied whole: url-filters have a `\\` every few bytes.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: utf8.count * 6) { scratch in
            guard let source = utf8.baseAddress, let destination = scratch.baseAddress else { return }
            var count = 0
            var runStart = 0
            while true {
                (destination + count).initialize(from: source + runStart, count: special - runStart)
                count += special - runStart
                guard special < utf8.count else { break }
                let byte = utf8[special]
                destination[count] = UInt8(ascii: "\\")
                count += 1
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): destination[count] = byte
                case 0x08: destination[count] = UInt8(ascii: "b")
                case 0x0C: destination[count] = UInt8(ascii: "f")
                case 0x0A: destination[count] = UInt8(ascii: "n")
                case 0x0D: destination[count] = UInt8(ascii: "r")
                case 0x09: destination[count] = UInt8(ascii: "t")
                default:
                    let low = byte & 0x0F
                    destination[count] = UInt8(ascii: "u")
                    destination[count + 1] = UInt8(ascii: "0")
                    destination[count + 2] = UInt8(ascii: "0")
                    destination[count + 3] = UInt8(ascii: byte >> 4 == 0 ? "0" : "1")
                    destination[count + 4] = low < 10 ? UInt8(ascii: "0") + low : UInt8(ascii: "a") + low - 10
                    count += 4
                }
                count += 1
                runStart = special + 1
                special = Self.indexOfSpecialByte(in: utf8, from: runStart)
            }
            bytes.append(contentsOf: UnsafeBufferPointer(start: destination, count: count))
        }
    }
}
