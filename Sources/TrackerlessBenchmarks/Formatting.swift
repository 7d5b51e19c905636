/// Number formats for the table: fixed decimals and thousands separators, independent of locale.
enum Formatting {
    /// `value` with `digits` decimals.
    static func decimal(_ value: Double, digits: Int) -> String {
        guard value.isFinite else { return "-" }
        var scale = 1
        for _ in 0..<digits { scale *= 10 }
        let scaled = Int((value.magnitude * Double(scale)).rounded())
        let whole = scaled / scale, fraction = scaled % scale
        let sign = value < 0 && scaled > 0 ? "-" : ""
        guard digits > 0 else { return sign + grouped(whole) }
        let fractionText = String(fraction)
        return sign + grouped(whole) + "." + String(repeating: "0", count: max(0, digits - fractionText.count)) + fractionText
    }

    /// `value` with thousands separators: `4,461,929`.
    static func grouped(_ value: Int) -> String {
        let digits = Array(String(value.magnitude))
        var text = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { text.append(",") }
            text.append(digit)
        }
        return (value < 0 ? "-" : "") + text
    }

    /// Bytes in megabytes (10^6), two decimals.
    static func megabytes(_ bytes: Int) -> String { decimal(Double(bytes) / 1e6, digits: 2) + " MB" }

    /// `text` padded with spaces to `width`, on the left for numbers.
    static func padded(_ text: String, _ width: Int, right: Bool = false) -> String {
        let padding = String(repeating: " ", count: max(0, width - text.count))
        return right ? padding + text : text + padding
    }
}
