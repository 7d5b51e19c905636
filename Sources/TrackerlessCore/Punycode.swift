/// Punycode (RFC 3492): the encoding of Unicode domain labels as ASCII behind the `xn--` prefix.
///
/// These functions convert one label without the prefix: `encode("bücher") == "bcher-kva"`.
/// For whole domain names, use `String.punycodeEncodedDomain`.
public enum Punycode: Sendable {
    private static let base = 36
    private static let tMin = 1
    private static let tMax = 26
    private static let skew = 38
    private static let damp = 700
    private static let initialBias = 72
    private static let initialN = 0x80
    /// Above this the arithmetic would leave the range of Unicode anyway: reject as overflow.
    private static let limit = Int(Int32.max)

    /// The Punycode form of `label` (without `xn--`), or nil if it cannot be encoded.
    ///
    /// An all-ASCII label encodes to itself followed by `-`, as RFC 3492 specifies.
    public static func encode(_ label: String) -> String? {
        let input = label.unicodeScalars.map { Int($0.value) }
        var output: [UInt8] = input.compactMap { $0 < 0x80 ? UInt8($0) : nil }
        let basicCount = output.count
        var handled = basicCount
        if basicCount > 0 { output.append(UInt8(ascii: "-")) }

        var n = initialN
        var delta = 0
        var bias = initialBias
        while handled < input.count {
            guard let m = input.lazy.filter({ $0 >= n }).min() else { return nil }
            let (increment, overflow) = (m - n).multipliedReportingOverflow(by: handled + 1)
            guard !overflow, delta <= limit - increment else { return nil }
            delta += increment
            n = m
            for scalar in input {
                if scalar < n {
                    delta += 1
                    guard delta <= limit else { return nil }
                }
                if scalar == n {
                    var q = delta
                    var k = base
                    while true {
                        let t = threshold(k, bias: bias)
                        if q < t { break }
                        output.append(digit(t + (q - t) % (base - t)))
                        q = (q - t) / (base - t)
                        k += base
                    }
                    output.append(digit(q))
                    bias = adapt(delta, pointCount: handled + 1, isFirst: handled == basicCount)
                    delta = 0
                    handled += 1
                }
            }
            delta += 1
            n += 1
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The Unicode label that `label` (without `xn--`) encodes, or nil if it is not valid Punycode.
    public static func decode(_ label: String) -> String? {
        let input = Array(label.utf8)
        guard input.allSatisfy({ $0 < 0x80 }) else { return nil }
        var output: [Int] = []
        var position = 0
        if let delimiter = input.lastIndex(of: UInt8(ascii: "-")) {
            output = input[..<delimiter].map { Int($0) }
            position = delimiter + 1
        }
        var n = initialN
        var i = 0
        var bias = initialBias
        while position < input.count {
            let oldI = i
            var weight = 1
            var k = base
            while true {
                guard position < input.count, let digit = digitValue(input[position]) else { return nil }
                position += 1
                let (product, overflow) = digit.multipliedReportingOverflow(by: weight)
                guard !overflow, i <= limit - product else { return nil }
                i += product
                let t = threshold(k, bias: bias)
                if digit < t { break }
                let (nextWeight, weightOverflow) = weight.multipliedReportingOverflow(by: base - t)
                guard !weightOverflow, nextWeight <= limit else { return nil }
                weight = nextWeight
                k += base
            }
            let count = output.count + 1
            bias = adapt(i - oldI, pointCount: count, isFirst: oldI == 0)
            guard i / count <= limit - n else { return nil }
            n += i / count
            i %= count
            guard n >= initialN, Unicode.Scalar(UInt32(clamping: n)) != nil, n <= 0x10FFFF else { return nil }
            output.insert(n, at: i)
            i += 1
        }
        var result = String.UnicodeScalarView()
        for value in output {
            guard let scalar = Unicode.Scalar(UInt32(clamping: value)) else { return nil }
            result.append(scalar)
        }
        return String(result)
    }

    private static func threshold(_ k: Int, bias: Int) -> Int {
        if k <= bias { return tMin }
        if k >= bias + tMax { return tMax }
        return k - bias
    }

    private static func adapt(_ delta: Int, pointCount: Int, isFirst: Bool) -> Int {
        var delta = isFirst ? delta / damp : delta / 2
        delta += delta / pointCount
        var k = 0
        while delta > ((base - tMin) * tMax) / 2 {
            delta /= base - tMin
            k += base
        }
        return k + ((base - tMin + 1) * delta) / (delta + skew)
    }

    private static func digit(_ value: Int) -> UInt8 {
        value < 26 ? UInt8(ascii: "a") + UInt8(value) : UInt8(ascii: "0") + UInt8(value - 26)
    }

    private static func digitValue(_ byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(byte - UInt8(ascii: "0")) + 26
        case UInt8(ascii: "a")...UInt8(ascii: "z"): Int(byte - UInt8(ascii: "a"))
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): Int(byte - UInt8(ascii: "A"))
        default: nil
        }
    }
}
