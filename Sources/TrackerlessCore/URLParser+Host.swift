extension URLParser {
    /// Parses and serializes a host: an IPv6 literal in brackets, an IPv4 address in any of the
    /// WHATWG forms (`0x7f.1`, `2130706433`), or a domain converted to lowercase punycode.
    /// Non-special URLs keep an opaque host as written, percent-encoded. Nil = invalid host.
    static func parseHost(_ bytes: ArraySlice<UInt8>, isSpecial: Bool) -> String? {
        if bytes.first == UInt8(ascii: "[") {
            guard bytes.count >= 2, bytes.last == UInt8(ascii: "]"),
                let address = parseIPv6(bytes.dropFirst().dropLast())
            else { return nil }
            return "[" + serializeIPv6(address) + "]"
        }
        guard isSpecial else {
            guard !bytes.contains(where: { isForbiddenHostByte($0) }) else { return nil }
            return percentEncoded(bytes, .c0Control)
        }
        var ascii: [UInt8]
        if !bytes.contains(where: { $0 == UInt8(ascii: "%") || $0 >= 0x80 }) {
            // The common case: plain ASCII, only lowercasing to do.
            ascii = bytes.map(ASCII.lowercased)
        } else {
            let decoded = percentDecoded(bytes)
            if !decoded.contains(where: { $0 >= 0x80 }) {
                ascii = decoded.map(ASCII.lowercased)
            } else {
                guard let text = String(validatingUTF8Bytes: decoded),
                    let encoded = text.punycodeEncodedDomain
                else { return nil }
                ascii = Array(encoded.utf8)
            }
        }
        guard !ascii.isEmpty,
            !ascii.contains(where: { isForbiddenHostByte($0) || $0 < 0x20 || $0 == 0x25 || $0 >= 0x7F }),
            hasValidPunycodeLabels(ascii)
        else { return nil }
        if endsInNumber(ascii) {
            guard let address = parseIPv4(ascii) else { return nil }
            return serializeIPv4(address)
        }
        return String(decoding: ascii, as: UTF8.self)
    }

    /// IDNA (UTS #46) rejects "xn--" labels that are not valid Punycode of a non-ASCII label,
    /// and so does WebKit.
    private static func hasValidPunycodeLabels(_ host: [UInt8]) -> Bool {
        var labelStart = 0
        while labelStart < host.count {
            let labelEnd = host[labelStart...].firstIndex(of: UInt8(ascii: ".")) ?? host.count
            let label = host[labelStart..<labelEnd]
            if label.count >= 4, label.starts(with: "xn--".utf8) {
                guard let decoded = Punycode.decode(String(decoding: label.dropFirst(4), as: UTF8.self)),
                    decoded.unicodeScalars.contains(where: { !$0.isASCII })
                else { return false }
            }
            labelStart = labelEnd + 1
        }
        return true
    }

    /// WHATWG's forbidden host code points (the domain check adds controls, `%` and DEL).
    private static func isForbiddenHostByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x00, 0x09, 0x0A, 0x0D, 0x20, UInt8(ascii: "#"), UInt8(ascii: "/"), UInt8(ascii: ":"),
            UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "?"), UInt8(ascii: "@"), UInt8(ascii: "["),
            UInt8(ascii: "\\"), UInt8(ascii: "]"), UInt8(ascii: "^"), UInt8(ascii: "|"):
            true
        default:
            false
        }
    }

    // MARK: IPv4

    /// Whether the last label (ignoring one trailing dot) is a number, which makes the host IPv4.
    private static func endsInNumber(_ bytes: [UInt8]) -> Bool {
        var end = bytes.count
        if end > 1, bytes[end - 1] == UInt8(ascii: ".") { end -= 1 }
        let start = (bytes[..<end].lastIndex(of: UInt8(ascii: ".")) ?? -1) + 1
        let last = bytes[start..<end]
        guard !last.isEmpty else { return false }
        if last.allSatisfy(isDigit) { return true }
        return last.count >= 2 && last[last.startIndex] == UInt8(ascii: "0")
            && (last[last.startIndex + 1] | 0x20) == UInt8(ascii: "x")
            && last.dropFirst(2).allSatisfy { hexValue($0) != nil }
    }

    private static func parseIPv4(_ bytes: [UInt8]) -> UInt32? {
        var parts = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        if parts.last?.isEmpty == true, parts.count > 1 { parts.removeLast() }
        guard parts.count <= 4 else { return nil }
        var numbers: [UInt64] = []
        for part in parts {
            guard let number = parseIPv4Number(part) else { return nil }
            numbers.append(number)
        }
        guard let last = numbers.last else { return nil }
        guard numbers.dropLast().allSatisfy({ $0 <= 255 }) else { return nil }
        guard last < UInt64(1) << (8 * (5 - numbers.count)) else { return nil }
        var address = last
        for (index, number) in numbers.dropLast().enumerated() {
            address += number << (8 * (3 - index))
        }
        return UInt32(truncatingIfNeeded: address)
    }

    /// One part of an IPv4 address: decimal, `0x` hexadecimal or `0` octal; nil if invalid.
    private static func parseIPv4Number(_ bytes: ArraySlice<UInt8>) -> UInt64? {
        guard !bytes.isEmpty else { return nil }
        var digits = bytes
        var radix: UInt64 = 10
        if digits.count >= 2, digits[digits.startIndex] == UInt8(ascii: "0"),
            (digits[digits.startIndex + 1] | 0x20) == UInt8(ascii: "x") {
            digits = digits.dropFirst(2)
            radix = 16
        } else if digits.count >= 2, digits[digits.startIndex] == UInt8(ascii: "0") {
            digits = digits.dropFirst()
            radix = 8
        }
        var value: UInt64 = 0
        for byte in digits {
            let digit: UInt64
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt64(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt64(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt64(byte - UInt8(ascii: "A") + 10)
            default: return nil
            }
            guard digit < radix else { return nil }
            // Anything past 2^32 is invalid anyway; saturate instead of overflowing.
            value = min(value * radix + digit, UInt64(1) << 40)
        }
        return value
    }

    private static func serializeIPv4(_ address: UInt32) -> String {
        "\(address >> 24).\((address >> 16) & 0xFF).\((address >> 8) & 0xFF).\(address & 0xFF)"
    }

    // MARK: IPv6

    /// The WHATWG IPv6 parser: eight 16-bit pieces, `::` compression, an IPv4 tail.
    private static func parseIPv6(_ input: ArraySlice<UInt8>) -> [UInt16]? {
        let bytes = Array(input)
        var address = [UInt16](repeating: 0, count: 8)
        var pieceIndex = 0
        var compress: Int?
        var pointer = 0
        func at(_ index: Int) -> UInt8? { index < bytes.count ? bytes[index] : nil }

        if at(0) == UInt8(ascii: ":") {
            guard at(1) == UInt8(ascii: ":") else { return nil }
            pointer = 2
            pieceIndex = 1
            compress = 1
        }
        while let byte = at(pointer) {
            guard pieceIndex < 8 else { return nil }
            if byte == UInt8(ascii: ":") {
                guard compress == nil else { return nil }
                pointer += 1
                pieceIndex += 1
                compress = pieceIndex
                continue
            }
            var value: UInt16 = 0
            var length = 0
            while length < 4, let next = at(pointer), let digit = hexValue(next) {
                value = value << 4 | UInt16(digit)
                pointer += 1
                length += 1
            }
            if at(pointer) == UInt8(ascii: ".") {
                guard length > 0, pieceIndex <= 6 else { return nil }
                pointer -= length
                var numbersSeen = 0
                while let current = at(pointer) {
                    if numbersSeen > 0 {
                        guard current == UInt8(ascii: "."), numbersSeen < 4 else { return nil }
                        pointer += 1
                    }
                    guard let first = at(pointer), isDigit(first) else { return nil }
                    var piece: Int?
                    while let digitByte = at(pointer), isDigit(digitByte) {
                        let number = Int(digitByte - UInt8(ascii: "0"))
                        if let existing = piece {
                            guard existing != 0 else { return nil }
                            piece = existing * 10 + number
                        } else {
                            piece = number
                        }
                        guard let current = piece, current <= 255 else { return nil }
                        pointer += 1
                    }
                    address[pieceIndex] = address[pieceIndex] &* 0x100 &+ UInt16(piece ?? 0)
                    numbersSeen += 1
                    if numbersSeen == 2 || numbersSeen == 4 { pieceIndex += 1 }
                }
                guard numbersSeen == 4 else { return nil }
                break
            } else if at(pointer) == UInt8(ascii: ":") {
                pointer += 1
                guard at(pointer) != nil else { return nil }
            } else if at(pointer) != nil {
                return nil
            }
            address[pieceIndex] = value
            pieceIndex += 1
        }
        if let compress {
            var swaps = pieceIndex - compress
            pieceIndex = 7
            while pieceIndex != 0, swaps > 0 {
                address.swapAt(pieceIndex, compress + swaps - 1)
                pieceIndex -= 1
                swaps -= 1
            }
        } else if pieceIndex != 8 {
            return nil
        }
        return address
    }

    /// Lowercase hexadecimal pieces with the first longest run of two or more zero pieces as `::`.
    private static func serializeIPv6(_ address: [UInt16]) -> String {
        var bestStart = -1
        var bestLength = 1
        var index = 0
        while index < 8 {
            if address[index] == 0 {
                var end = index
                while end < 8, address[end] == 0 { end += 1 }
                if end - index > bestLength {
                    bestStart = index
                    bestLength = end - index
                }
                index = end
            } else {
                index += 1
            }
        }
        var output = ""
        var ignoringZeros = false
        for (position, piece) in address.enumerated() {
            if ignoringZeros, piece == 0 { continue }
            ignoringZeros = false
            if position == bestStart {
                output += position == 0 ? "::" : ":"
                ignoringZeros = true
                continue
            }
            output += String(piece, radix: 16)
            if position != 7 { output += ":" }
        }
        return output
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
