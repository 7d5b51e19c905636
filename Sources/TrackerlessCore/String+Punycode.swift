extension String {
    /// "xn--" form of a domain, lowercased; nil if not convertible
    ///
    /// Each label that is not ASCII is lowercased and Punycode-encoded behind `xn--`; ASCII labels
    /// are lowercased. The ideographic full stops `。`, `．` and `｡` separate labels like `.`,
    /// as in IDNA. Unlike full UTS #46 processing, no other characters are mapped or normalized.
    public var punycodeEncodedDomain: String? {
        var labels: [String] = []
        var current = String.UnicodeScalarView()
        var isASCII = true
        func finishLabel() -> Bool {
            let label = String(current)
            if isASCII {
                labels.append(label.lowercased())
            } else {
                guard let encoded = Punycode.encode(label.lowercased()) else { return false }
                labels.append("xn--" + encoded)
            }
            current = String.UnicodeScalarView()
            isASCII = true
            return true
        }
        for scalar in unicodeScalars {
            switch scalar {
            case ".", "\u{3002}", "\u{FF0E}", "\u{FF61}":
                guard finishLabel() else { return nil }
            default:
                if !scalar.isASCII { isASCII = false }
                current.append(scalar)
            }
        }
        guard finishLabel() else { return nil }
        return labels.joined(separator: ".")
    }
}
