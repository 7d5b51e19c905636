/// A cookie as a script writes it to `document.cookie` (`name=value; Max-Age=…; Path=/`): how long
/// it would live, and the same cookie with another lifetime.
///
/// Attributes are read as RFC 6265 (section 5.2) reads them: split at `;`, names without case,
/// a `Max-Age` of digits (with an optional leading `-`) wins over `Expires`, the last usable one
/// of each counts, and `Expires` is a cookie-date (section 5.1.1).
public struct DocumentCookie: Sendable, Hashable {
    /// The text as written.
    public let text: String
    private let pieces: [Substring]

    /// The cookie `text`.
    public init(_ text: String) {
        self.text = text
        pieces = text.split(separator: ";", omittingEmptySubsequences: false)
    }

    /// The attributes after the name and value: (name lowercased, value), both without the
    /// spaces and tabs around them.
    private var attributes: [(name: String, value: Substring)] {
        pieces.dropFirst().map { piece in
            let equals = piece.firstIndex(of: "=")
            let name = Self.trimmed(equals.map { piece[..<$0] } ?? piece).lowercased()
            let value = equals.map { Self.trimmed(piece[piece.index(after: $0)...]) } ?? ""
            return (name, value)
        }
    }

    /// Seconds from `now` (seconds since 1970) until the cookie expires: nil for a session cookie
    /// (no usable `Max-Age` or `Expires`), 0 or less for one that is expired when written.
    public func lifetime(now: Double) -> Double? {
        var maxAge: Double?
        var expires: Double?
        for (name, value) in attributes {
            if name == "max-age", let seconds = Self.deltaSeconds(value) {
                maxAge = seconds
            } else if name == "expires", let date = Self.date(value) {
                expires = date
            }
        }
        if let maxAge { return max(maxAge, 0) }
        return expires.map { $0 - now }
    }

    /// The cookie without its `Expires` and `Max-Age` attributes, with `Max-Age=<seconds>` last.
    public func withMaxAge(_ seconds: Int) -> String {
        var kept = [pieces.first ?? ""]
        for piece in pieces.dropFirst() {
            let name = Self.trimmed(piece.firstIndex(of: "=").map { piece[..<$0] } ?? piece).lowercased()
            if name != "expires" && name != "max-age" { kept.append(piece) }
        }
        return kept.joined(separator: ";") + "; Max-Age=" + String(seconds)
    }

    /// `Max-Age`'s value: digits, with an optional leading `-`.
    static func deltaSeconds(_ value: Substring) -> Double? {
        let digits = value.hasPrefix("-") ? value.dropFirst() : value
        guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        let magnitude = digits.utf8.reduce(0.0) { $0 * 10 + Double($1 - 0x30) }
        return value.hasPrefix("-") ? -magnitude : magnitude
    }

    private static func trimmed(_ text: Substring) -> Substring {
        var text = text
        while let first = text.first, first == " " || first == "\t" { text = text.dropFirst() }
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        return text
    }

    /// An RFC 6265 cookie-date as seconds since 1970 (UTC), or nil when it is none.
    public static func date(_ text: Substring) -> Double? {
        var time: (Int, Int, Int)?
        var day: Int?
        var month: Int?
        var year: Int?
        for token in text.utf8.split(whereSeparator: isDelimiter) {
            let token = Array(token)
            if time == nil, let parsed = Self.time(token) {
                time = parsed
            } else if day == nil, let parsed = Self.number(token, digits: 1...2) {
                day = parsed
            } else if month == nil, let parsed = Self.month(token) {
                month = parsed
            } else if year == nil, let parsed = Self.number(token, digits: 2...4) {
                year = parsed
            }
        }
        guard let (hour, minute, second) = time, let day, let month, var year else { return nil }
        if year >= 70 && year <= 99 { year += 1900 } else if year >= 0 && year <= 69 { year += 2000 }
        guard year >= 1601, day >= 1, day <= daysIn(month: month, year: year), hour <= 23, minute <= 59, second <= 59 else {
            return nil
        }
        return Double(daysSince1970(year: year, month: month, day: day)) * 86_400 + Double(hour * 3600 + minute * 60 + second)
    }

    private static func isDelimiter(_ byte: UInt8) -> Bool {
        byte == 0x09 || (0x20...0x2F).contains(byte) || (0x3B...0x40).contains(byte) || (0x5B...0x60).contains(byte)
            || (0x7B...0x7E).contains(byte)
    }

    /// The leading digits of `token` as a number when there are `digits` of them (then anything
    /// but a digit may follow).
    private static func number(_ token: [UInt8], digits: ClosedRange<Int>, from start: Int = 0) -> Int? {
        var end = start
        while end < token.count, token[end] >= 0x30, token[end] <= 0x39 { end += 1 }
        guard digits.contains(end - start) else { return nil }
        return token[start..<end].reduce(0) { $0 * 10 + Int($1 - 0x30) }
    }

    /// `hh:mm:ss` (one or two digits each), then anything but a digit.
    private static func time(_ token: [UInt8]) -> (Int, Int, Int)? {
        var values: [Int] = []
        var index = 0
        for part in 0..<3 {
            let start = index
            while index < token.count, token[index] >= 0x30, token[index] <= 0x39 { index += 1 }
            guard (1...2).contains(index - start) else { return nil }
            values.append(token[start..<index].reduce(0) { $0 * 10 + Int($1 - 0x30) })
            if part < 2 {
                guard index < token.count, token[index] == UInt8(ascii: ":") else { return nil }
                index += 1
            }
        }
        return (values[0], values[1], values[2])
    }

    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    private static func month(_ token: [UInt8]) -> Int? {
        guard token.count >= 3 else { return nil }
        let prefix = String(decoding: token[0..<3].map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self)
        return months.firstIndex(of: prefix).map { $0 + 1 }
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days from 1970-01-01 to the date (proleptic Gregorian calendar).
    private static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = y / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
