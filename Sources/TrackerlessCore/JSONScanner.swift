/// The parser's cursor over the document's bytes; ``JSONReader`` reads through it too, so both
/// report the same syntax errors at the same places.
struct JSONScanner {
    /// A container being filled while its members are parsed: where its members start on the
    /// shared stacks.
    private struct Frame {
        var isObject: Bool
        var valueBase: Int
        var keyBase: Int
    }

    let bytes: UnsafeBufferPointer<UInt8>
    let maxDepth: Int
    private let indexingObjects: Bool
    var position = 0
    /// Reused buffer for strings that need unescaping.
    private var scratch: [UInt8] = []
    /// Short strings met before: documents repeat their keys and many values.
    private var shortStrings = ShortStringCache()

    init(_ bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int, indexingObjects: Bool) {
        self.bytes = bytes
        self.maxDepth = maxDepth
        self.indexingObjects = indexingObjects
    }

    mutating func parseDocument() throws(JSONSyntaxError) -> JSONValue {
        skipByteOrderMark()
        let value = try parseValue()
        try expectEnd()
        return value
    }

    mutating func skipByteOrderMark() {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            position = 3
        }
    }

    /// Checks that only whitespace follows the document's value.
    mutating func expectEnd() throws(JSONSyntaxError) {
        skipWhitespace()
        if position < bytes.count {
            throw error("unexpected \(describeByte(at: position)) after the JSON value", at: position)
        }
    }

    // MARK: Values

    /// Parses one value iteratively, so nesting depth costs heap, not stack.
    ///
    /// Members of all open containers share one value stack (and one key stack); a container's
    /// members are copied into an exactly sized array when it closes, so each container costs
    /// one allocation instead of one per doubling.
    ///
    /// - Parameter depth: how many containers enclose the value (for the depth limit).
    mutating func parseValue(depth: Int = 0) throws(JSONSyntaxError) -> JSONValue {
        var frames: [Frame] = []
        var valueStack: [JSONValue] = []
        var keyStack: [String] = []
        valueStack.reserveCapacity(256)
        keyStack.reserveCapacity(128)
        while true {
            var value: JSONValue
            switch try valueStart() {
            case UInt8(ascii: "{"):
                guard try enterContainer(closedBy: UInt8(ascii: "}"), depth: frames.count + depth) else {
                    value = .object(JSONObject())
                    break
                }
                frames.append(Frame(isObject: true, valueBase: valueStack.count, keyBase: keyStack.count))
                keyStack.append(try parseKey())
                continue
            case UInt8(ascii: "["):
                guard try enterContainer(closedBy: UInt8(ascii: "]"), depth: frames.count + depth) else {
                    value = .array([])
                    break
                }
                frames.append(Frame(isObject: false, valueBase: valueStack.count, keyBase: keyStack.count))
                continue
            case UInt8(ascii: "\""):
                value = .string(try parseString())
            case UInt8(ascii: "t"):
                try expectLiteral("true")
                value = .bool(true)
            case UInt8(ascii: "f"):
                try expectLiteral("false")
                value = .bool(false)
            case UInt8(ascii: "n"):
                try expectLiteral("null")
                value = .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                value = .number(try parseNumber())
            default:
                throw error("expected a JSON value, found \(describeByte(at: position))", at: position)
            }

            // Attach the finished value to its container, closing containers that end here.
            while true {
                guard let frame = frames.last else { return value }
                valueStack.append(value)
                if try skipSeparator(inObject: frame.isObject) {
                    if frame.isObject {
                        skipWhitespace()
                        keyStack.append(try parseKey())
                    }
                    break
                }
                frames.removeLast()
                if frame.isObject {
                    let keys = Self.popTail(of: &keyStack, from: frame.keyBase, filler: "")
                    let values = Self.popTail(of: &valueStack, from: frame.valueBase, filler: .null)
                    value = .object(JSONObject(keys: keys, values: values, indexed: indexingObjects))
                } else {
                    value = .array(Self.popTail(of: &valueStack, from: frame.valueBase, filler: .null))
                }
            }
        }
    }

    /// Checks the value at the cursor as ``parseValue(depth:)`` does, with the same errors at the
    /// same places, and moves past it without building it.
    ///
    /// - Parameter depth: how many containers enclose the value (for the depth limit).
    mutating func skipValue(depth: Int = 0) throws(JSONSyntaxError) {
        // Whether each open container is an object.
        var containers: [Bool] = []
        while true {
            switch try valueStart() {
            case UInt8(ascii: "{"):
                if try enterContainer(closedBy: UInt8(ascii: "}"), depth: containers.count + depth) {
                    containers.append(true)
                    try skipKey()
                    continue
                }
            case UInt8(ascii: "["):
                if try enterContainer(closedBy: UInt8(ascii: "]"), depth: containers.count + depth) {
                    containers.append(false)
                    continue
                }
            case UInt8(ascii: "\""):
                try skipString()
            case UInt8(ascii: "t"):
                try expectLiteral("true")
            case UInt8(ascii: "f"):
                try expectLiteral("false")
            case UInt8(ascii: "n"):
                try expectLiteral("null")
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                _ = try parseNumber()
            default:
                throw error("expected a JSON value, found \(describeByte(at: position))", at: position)
            }
            // Close the containers that end after the value.
            while true {
                guard let isObject = containers.last else { return }
                if try skipSeparator(inObject: isObject) {
                    if isObject {
                        skipWhitespace()
                        try skipKey()
                    }
                    break
                }
                containers.removeLast()
            }
        }
    }

    /// Checks `"key" :` as ``parseKey()`` does and leaves the cursor after the colon.
    private mutating func skipKey() throws(JSONSyntaxError) {
        try expectKeyQuote()
        try skipString()
        try expectColon()
    }

    /// Checks the string that starts at the cursor as ``parseString()`` does and moves past it.
    private mutating func skipString() throws(JSONSyntaxError) {
        let start = position + 1
        var index = start
        if let end = plainStringEnd(from: start, stoppingAt: &index) {
            position = end + 1
            return
        }
        _ = try parseEscapedString(quote: position, plainEnd: index)
    }

    /// Skips whitespace to the first byte of a value, which it returns.
    @inline(__always)
    mutating func valueStart() throws(JSONSyntaxError) -> UInt8 {
        skipWhitespace()
        guard position < bytes.count else {
            throw error("unexpected end of input, expected a JSON value", at: position)
        }
        return bytes[position]
    }

    /// Enters the object or array that opens at the cursor, inside `depth` others; returns false
    /// when it is empty, and then leaves the cursor after its end.
    mutating func enterContainer(closedBy closing: UInt8, depth: Int) throws(JSONSyntaxError) -> Bool {
        if depth >= maxDepth {
            throw error("nesting is deeper than the limit of \(maxDepth) levels", at: position)
        }
        position += 1
        skipWhitespace()
        if position < bytes.count, bytes[position] == closing {
            position += 1
            return false
        }
        return true
    }

    /// After a member of an object (or an element of an array): skips the comma and returns true
    /// when another follows, or skips the closing brace (bracket) and returns false.
    @inline(__always)
    mutating func skipSeparator(inObject: Bool) throws(JSONSyntaxError) -> Bool {
        skipWhitespace()
        guard position < bytes.count else {
            throw error(
                inObject
                    ? "unexpected end of input, expected ',' or '}' after an object member"
                    : "unexpected end of input, expected ',' or ']' after an array element",
                at: position)
        }
        let byte = bytes[position]
        if byte == UInt8(ascii: ",") {
            position += 1
            return true
        }
        guard byte == (inObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) else {
            throw error(
                inObject
                    ? "expected ',' or '}' after an object member, found \(describeByte(at: position))"
                    : "expected ',' or ']' after an array element, found \(describeByte(at: position))",
                at: position)
        }
        position += 1
        return false
    }

    /// Removes `stack[base...]` and returns it as an exactly sized array.
    ///
    /// The elements are moved, not copied, which saves a retain and a release per element: the
    /// vacated slots are refilled with `filler` (a value without references) before they are
    /// removed.
    private static func popTail<Element>(of stack: inout [Element], from base: Int, filler: Element) -> [Element] {
        let count = stack.count - base
        guard count > 0 else { return [] }
        let tail = stack.withUnsafeMutableBufferPointer { stackBuffer -> [Element] in
            guard let source = stackBuffer.baseAddress.map({ $0 + base }) else { return [] }
            return [Element](unsafeUninitializedCapacity: count) { buffer, initializedCount in
                guard let destination = buffer.baseAddress else { return }
                destination.moveInitialize(from: source, count: count)
                source.initialize(repeating: filler, count: count)
                initializedCount = count
            }
        }
        stack.removeSubrange(base...)
        return tail
    }

    /// Parses `"key" :` and leaves the cursor after the colon.
    mutating func parseKey() throws(JSONSyntaxError) -> String {
        try expectKeyQuote()
        let key = try parseString()
        try expectColon()
        return key
    }

    /// Checks that an object key begins here.
    @inline(__always)
    func expectKeyQuote() throws(JSONSyntaxError) {
        guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
            throw error("expected '\"' to begin an object key, found \(describeByte(at: position))", at: position)
        }
    }

    /// Skips the colon after a key, and the whitespace before it.
    @inline(__always)
    mutating func expectColon() throws(JSONSyntaxError) {
        skipWhitespace()
        guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else {
            throw error("expected ':' after an object key, found \(describeByte(at: position))", at: position)
        }
        position += 1
    }

    mutating func expectLiteral(_ literal: StaticString) throws(JSONSyntaxError) {
        let start = position
                let count = literal.utf8CodeUnitCount
        let matches = literal.withUTF8Buffer { expected -> Bool in
            guard bytes.count - start >= count else { return false }
            for offset in 0..<count where bytes[start + offset] != expected[offset] {
                return false
            }
            return true
        }
        guard matches else {
            throw error("expected a JSON value, found \(describeByte(at: start)) (not '\(literal)')", at: start)
        }
        position += count
    }

    mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x0A:
                position += 1
                skipIndentation()
            case 0x20, 0x0D, 0x09:
                position += 1
            default:
                return
            }
        }
    }

    /// Skips spaces eight at a time: pretty-printed files are nearly half indentation.
    private mutating func skipIndentation() {
        guard let base = bytes.baseAddress else { return }
        let raw = UnsafeRawPointer(base)
        while position + 8 <= bytes.count,
            raw.loadUnaligned(fromByteOffset: position, as: UInt64.self) == 0x2020_2020_2020_2020 {
            position += 8
        }
    }

    // MARK: Strings

    /// Parses a string starting at its opening quote.
    mutating func parseString() throws(JSONSyntaxError) -> String {
        let quote = position
        let start = position + 1
        var index = start
        if let end = plainStringEnd(from: start, stoppingAt: &index) {
            position = end + 1
            let text = UnsafeBufferPointer(rebasing: bytes[start..<end])
            return shortStrings.string(for: text, readable: bytes.count - start) ?? String(decoding: text, as: UTF8.self)
        }
        return try parseEscapedString(quote: quote, plainEnd: index)
    }

    /// The index of the closing quote of the string whose text begins at `start` when the text is
    /// plain ASCII without escapes or controls, the vast majority of keys and values; otherwise
    /// nil, with `index` at the first byte that needs work.
    func plainStringEnd(from start: Int, stoppingAt index: inout Int) -> Int? {
        index = start
        // Skip eight bytes at a time while none is a quote, a backslash, a control or non-ASCII.
        if let base = bytes.baseAddress {
            let raw = UnsafeRawPointer(base)
            let ones: UInt64 = 0x0101_0101_0101_0101
            let highBits: UInt64 = 0x8080_8080_8080_8080
            while index + 8 <= bytes.count {
                let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                let quote = word ^ (ones &* 0x22)
                let backslash = word ^ (ones &* 0x5C)
                let special = ((word &- ones &* 0x20) & ~word) | ((quote &- ones) & ~quote)
                    | ((backslash &- ones) & ~backslash) | word
                if special & highBits != 0 { break }
                index += 8
            }
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") { return index }
            if byte == UInt8(ascii: "\\") || byte < 0x20 || byte >= 0x80 { return nil }
            index += 1
        }
        return nil
    }

    /// Parses the rest of a string that is not plain: its text from `plainEnd` on needs escapes
    /// resolved or UTF-8 validated.
    mutating func parseEscapedString(quote: Int, plainEnd: Int) throws(JSONSyntaxError) -> String {
        let start = quote + 1
        var index = plainEnd
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
        while true {
            guard index < bytes.count else {
                throw error("unterminated string", at: quote)
            }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                position = index + 1
                return String(decoding: scratch, as: UTF8.self)
            } else if byte == UInt8(ascii: "\\") {
                index = try parseEscape(at: index)
            } else if byte < 0x20 {
                throw error("unescaped control character U+\(hex4(UInt32(byte))) in a string", at: index)
            } else if byte < 0x80 {
                // The plain run up to the next escape (rules have one every few bytes), in one go.
                var runEnd = index
                let end = plainStringEnd(from: index, stoppingAt: &runEnd) ?? runEnd
                scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<end]))
                index = end
            } else {
                let length = try utf8SequenceLength(at: index)
                scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<(index + length)]))
                index += length
            }
        }
    }

    /// Decodes the escape at `index` into `scratch`, returning the index after it.
    private mutating func parseEscape(at index: Int) throws(JSONSyntaxError) -> Int {
        guard index + 1 < bytes.count else {
            throw error("unterminated string", at: index)
        }
        let replacement: UInt8
        switch bytes[index + 1] {
        case UInt8(ascii: "\""): replacement = UInt8(ascii: "\"")
        case UInt8(ascii: "\\"): replacement = UInt8(ascii: "\\")
        case UInt8(ascii: "/"): replacement = UInt8(ascii: "/")
        case UInt8(ascii: "b"): replacement = 0x08
        case UInt8(ascii: "f"): replacement = 0x0C
        case UInt8(ascii: "n"): replacement = 0x0A
        case UInt8(ascii: "r"): replacement = 0x0D
        case UInt8(ascii: "t"): replacement = 0x09
        case UInt8(ascii: "u"):
            return try parseUnicodeEscape(at: index)
        default:
            throw error("invalid escape sequence '\\\(describeRawByte(at: index + 1))' in a string", at: index)
        }
        scratch.append(replacement)
        return index + 2
    }

    /// Decodes `\uXXXX`, or a surrogate pair `\uD83D\uDE00`, at `index`.
    private mutating func parseUnicodeEscape(at index: Int) throws(JSONSyntaxError) -> Int {
        let first = try hexQuad(at: index + 2, escapeStart: index)
        var scalarValue = first
        var end = index + 6
        if (0xD800...0xDBFF).contains(first) {
            guard end + 1 < bytes.count, bytes[end] == UInt8(ascii: "\\"), bytes[end + 1] == UInt8(ascii: "u") else {
                throw error("unpaired surrogate \\u\(hex4(first)) in a string", at: index)
            }
            let second = try hexQuad(at: end + 2, escapeStart: end)
            guard (0xDC00...0xDFFF).contains(second) else {
                throw error("unpaired surrogate \\u\(hex4(first)) in a string", at: index)
            }
            scalarValue = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
            end += 6
        } else if (0xDC00...0xDFFF).contains(first) {
            throw error("unpaired surrogate \\u\(hex4(first)) in a string", at: index)
        }
        guard let scalar = Unicode.Scalar(scalarValue) else {
            throw error("invalid \\u escape in a string", at: index)
        }
        scratch.append(contentsOf: UTF8.encode(scalar) ?? UTF8.EncodedScalar())
        return end
    }

    private func hexQuad(at index: Int, escapeStart: Int) throws(JSONSyntaxError) -> UInt32 {
        guard index + 4 <= bytes.count else {
            throw error("invalid \\u escape in a string: expected four hexadecimal digits", at: escapeStart)
        }
        var value: UInt32 = 0
        for offset in 0..<4 {
            let byte = bytes[index + offset]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default:
                throw error("invalid \\u escape in a string: expected four hexadecimal digits", at: escapeStart)
            }
            value = value << 4 | digit
        }
        return value
    }

    /// The length of the well-formed UTF-8 sequence at `index` (RFC 3629, Table 3-7 of Unicode).
    private func utf8SequenceLength(at index: Int) throws(JSONSyntaxError) -> Int {
        let lead = bytes[index]
        let length: Int
        var secondRange: ClosedRange<UInt8> = 0x80...0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; secondRange = 0xA0...0xBF
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; secondRange = 0x80...0x9F
        case 0xF0: length = 4; secondRange = 0x90...0xBF
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; secondRange = 0x80...0x8F
        default:
            throw error("invalid UTF-8 byte 0x\(hex2(lead)) in a string", at: index)
        }
        guard index + length <= bytes.count else {
            throw error("truncated UTF-8 sequence in a string", at: index)
        }
        guard secondRange.contains(bytes[index + 1]) else {
            throw error("invalid UTF-8 sequence in a string", at: index)
        }
        for offset in 2..<max(2, length) where !(0x80...0xBF).contains(bytes[index + offset]) {
            throw error("invalid UTF-8 sequence in a string", at: index)
        }
        return length
    }

    /// A direct-mapped cache of short ASCII strings (keys such as `"rule"` or `"domains"`, values
    /// such as `"block"`), compared as two 64-bit words: finding one costs a few instructions,
    /// creating it again a validation and a copy.
    private struct ShortStringCache {
        private static let slotCount = 256
        private var first = [UInt64](repeating: 0, count: slotCount)
        private var second = [UInt64](repeating: 0, count: slotCount)
        private var strings = [String](repeating: "", count: slotCount)

        /// The string of `text` (ASCII without controls, so it holds no zero byte), cached when
        /// it has 1 to 15 bytes (Swift keeps those inline, without an allocation); nil for others.
        /// `readable`: how many bytes from the start of `text` may be read (at least its count).
        mutating func string(for text: UnsafeBufferPointer<UInt8>, readable: Int) -> String? {
            guard text.count > 0, text.count < 16, let base = text.baseAddress else { return nil }
            // The bytes as two zero-padded little-endian words: loaded 16 at a time and masked
            // where the document goes on, copied near its end.
            var key0: UInt64 = 0, key1: UInt64 = 0
            if readable >= 16 {
                let raw = UnsafeRawPointer(base)
                key0 = UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self))
                key1 = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
                if text.count < 8 {
                    key0 &= (1 << (8 * UInt64(text.count))) - 1
                    key1 = 0
                } else {
                    key1 &= (1 << (8 * UInt64(text.count - 8))) - 1
                }
            } else {
                var words: (UInt64, UInt64) = (0, 0)
                withUnsafeMutableBytes(of: &words) { $0.copyMemory(from: UnsafeRawBufferPointer(start: base, count: text.count)) }
                key0 = UInt64(littleEndian: words.0)
                key1 = UInt64(littleEndian: words.1)
            }
            let slot = Int(truncatingIfNeeded: ((key0 &+ key1 &* 31) &* 0x9E37_79B9_7F4A_7C15) >> 56)
            if first[slot] == key0, second[slot] == key1 { return strings[slot] }
            let string = String(decoding: text, as: UTF8.self)
            first[slot] = key0
            second[slot] = key1
            strings[slot] = string
            return string
        }
    }

    // MARK: Numbers

    /// Exact powers of ten for the fast path: a double of at most 53 bits times or divided by one
    /// of these is correctly rounded (Clinger's fast path).
    private static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    mutating func parseNumber() throws(JSONSyntaxError) -> Double {
        let start = position
        var index = position
        let isNegative = bytes[index] == UInt8(ascii: "-")
        if isNegative { index += 1 }
        var mantissa: UInt64 = 0
        var digitCount = 0
        var fractionDigits = 0

        guard index < bytes.count, isDigit(bytes[index]) else {
            throw error("expected a digit after '-'", at: index)
        }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, isDigit(bytes[index]) {
                throw error("leading zeros are not allowed in numbers", at: start)
            }
        } else {
            while index < bytes.count, isDigit(bytes[index]) {
                if digitCount < 19 { mantissa = mantissa &* 10 &+ UInt64(bytes[index] - UInt8(ascii: "0")) }
                digitCount += 1
                index += 1
            }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else {
                throw error("expected a digit after the decimal point", at: index)
            }
            while index < bytes.count, isDigit(bytes[index]) {
                if digitCount < 19 {
                    mantissa = mantissa &* 10 &+ UInt64(bytes[index] - UInt8(ascii: "0"))
                    if mantissa != 0 { digitCount += 1 }
                    fractionDigits += 1
                } else {
                    digitCount += 1
                }
                index += 1
            }
        }
        var exponent = 0
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            var exponentIsNegative = false
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                exponentIsNegative = bytes[index] == UInt8(ascii: "-")
                index += 1
            }
            guard index < bytes.count, isDigit(bytes[index]) else {
                throw error("expected a digit in the exponent", at: index)
            }
            while index < bytes.count, isDigit(bytes[index]) {
                if exponent < 100_000 { exponent = exponent * 10 + Int(bytes[index] - UInt8(ascii: "0")) }
                index += 1
            }
            if exponentIsNegative { exponent = -exponent }
        }
        position = index

        let decimalExponent = exponent - fractionDigits
        if digitCount <= 19, mantissa <= (1 << 53), (-22...22).contains(decimalExponent) {
            var value = Double(mantissa)
            if decimalExponent < 0 {
                value /= Self.powersOfTen[-decimalExponent]
            } else {
                value *= Self.powersOfTen[decimalExponent]
            }
            return isNegative ? -value : value
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            throw error("number \(text) is out of the range of a double", at: start)
        }
        return value
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        byte &- UInt8(ascii: "0") < 10
    }

    // MARK: Errors

    func error(_ reason: String, at offset: Int) -> JSONSyntaxError {
        let offset = min(max(offset, 0), bytes.count)
        var line = 1
        var column = 1
        for index in 0..<offset {
            let byte = bytes[index]
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return JSONSyntaxError(offset: offset, line: line, column: column, reason: reason)
    }

    func describeByte(at index: Int) -> String {
        guard index < bytes.count else { return "end of input" }
        return "'\(describeRawByte(at: index))'"
    }

    private func describeRawByte(at index: Int) -> String {
        guard index < bytes.count else { return "" }
        let byte = bytes[index]
        if byte >= 0x20, byte < 0x7F { return String(UnicodeScalar(byte)) }
        return "\\x\(hex2(byte))"
    }

    private func hex2(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return digits.count < 2 ? "0" + digits : digits
    }

    private func hex4(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
