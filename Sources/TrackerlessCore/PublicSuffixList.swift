/// Public Suffix List (ICANN + private sections), bundled.
///
/// Answers which part of a host name is a public suffix (`co.uk`, `github.io`) and which is the
/// registrable domain (eTLD+1, `example.co.uk`), following the list's algorithm: the longest
/// matching rule prevails, an exception rule (`!www.ck`) beats a wildcard (`*.ck`), and an
/// unlisted top-level domain is a public suffix by the default rule `*`.
public struct PublicSuffixList: Sendable {
    /// Rule kinds per suffix; a suffix with no bits set only leads to longer rules.
    private struct Kinds: OptionSet, Sendable {
        let rawValue: UInt8
        static let icannRule = Kinds(rawValue: 1 << 0)
        static let privateRule = Kinds(rawValue: 1 << 1)
        static let icannWildcard = Kinds(rawValue: 1 << 2)
        static let privateWildcard = Kinds(rawValue: 1 << 3)
        static let icannException = Kinds(rawValue: 1 << 4)
        static let privateException = Kinds(rawValue: 1 << 5)
    }

    /// Every rule's suffix and every shorter suffix of it, so a lookup can stop at the first miss.
    /// `*.ck` is stored under `ck`, `!www.ck` under `www.ck`.
    private var entries: [Substring: Kinds] = [:]

    /// The list compiled into the library (see `Scripts/generate-public-suffix-data.py`).
    public static let bundled = PublicSuffixList(parsing: bundledRules)

    /// Parses the list's text format: one rule per line, `//` comments, and the
    /// `===BEGIN PRIVATE DOMAINS===` marker (or the generator's `===PRIVATE===`) before the
    /// private rules. Non-ASCII rules are converted to punycode; malformed rules are skipped.
    public init(parsing datText: String) {
        var isPrivate = false
        entries.reserveCapacity(16_384)
        for rawLine in datText.split(whereSeparator: { $0 == "\n" || $0 == "\r" }) {
            let line = rawLine.drop(while: { $0 == " " || $0 == "\t" })
            if line.contains("===BEGIN PRIVATE DOMAINS===") || line == "===PRIVATE===" {
                isPrivate = true
                continue
            }
            if line.contains("===BEGIN ICANN DOMAINS===") {
                isPrivate = false
                continue
            }
            if line.isEmpty || line.hasPrefix("//") { continue }
            guard let word = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).first else { continue }
            add(rule: word, isPrivate: isPrivate)
        }
    }

    private mutating func add(rule word: Substring, isPrivate: Bool) {
        var rule = word
        var kind: Kinds = isPrivate ? .privateRule : .icannRule
        if rule.hasPrefix("!") {
            rule = rule.dropFirst()
            kind = isPrivate ? .privateException : .icannException
        } else if rule.hasPrefix("*.") {
            rule = rule.dropFirst(2)
            kind = isPrivate ? .privateWildcard : .icannWildcard
        }
        if !rule.utf8.allSatisfy({ $0 < 0x80 }) || rule.utf8.contains(where: { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }) {
            guard let ascii = String(rule).punycodeEncodedDomain else { return }
            rule = Substring(ascii)
        }
        guard !rule.isEmpty, !rule.contains("*"), !rule.contains("!") else { return }
        entries[rule, default: []].formUnion(kind)
        var suffix = rule
        while let dot = suffix.firstIndex(of: ".") {
            suffix = suffix[suffix.index(after: dot)...]
            if entries[suffix] == nil { entries[suffix] = [] }
        }
    }

    /// The public suffix of `host` (`co.uk` for `www.example.co.uk`); the host itself when it is a
    /// public suffix; nil for IP literals and malformed or empty hosts.
    ///
    /// - Parameters:
    ///   - host: A host name; uppercase and non-ASCII labels are converted first.
    ///   - includingPrivateDomains: Whether rules from the list's private section (`github.io`)
    ///     count; when false only ICANN rules do.
    public func publicSuffix(of host: String, includingPrivateDomains: Bool = true) -> String? {
        guard let (name, trailingDot, suffixStart, _) = split(host, includingPrivateDomains) else { return nil }
        return String(name[suffixStart...]) + trailingDot
    }

    /// eTLD+1 of a lowercase ASCII (punycode) host; nil for IP literals, empty hosts and hosts that are themselves public suffixes.
    ///
    /// For example `example.co.uk` for `www.example.co.uk`, and `user.github.io` for
    /// `a.user.github.io` unless `includingPrivateDomains` is false (then `github.io`).
    public func registrableDomain(of host: String, includingPrivateDomains: Bool = true) -> String? {
        guard let (name, trailingDot, _, registrableStart) = split(host, includingPrivateDomains),
            let registrableStart
        else { return nil }
        return String(name[registrableStart...]) + trailingDot
    }

    /// Finds where the public suffix and the registrable domain of `host` start.
    private func split(
        _ host: String, _ includingPrivateDomains: Bool
    ) -> (name: Substring, trailingDot: String, suffixStart: String.Index, registrableStart: String.Index?)? {
        let normalized: String
        if host.utf8.allSatisfy({ $0 < 0x80 && !($0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z")) }) {
            normalized = host
        } else {
            guard let ascii = host.punycodeEncodedDomain else { return nil }
            normalized = ascii
        }
        var name = normalized[...]
        var trailingDot = ""
        if name.hasSuffix(".") {
            name = name.dropLast()
            trailingDot = "."
        }
        guard !name.isEmpty, !name.hasPrefix("."), !name.contains(".."),
            !name.contains(":"), !name.contains("["), !Self.endsInNumber(name)
        else { return nil }

        let ruleKinds: Kinds = includingPrivateDomains ? [.icannRule, .privateRule] : .icannRule
        let wildcardKinds: Kinds = includingPrivateDomains ? [.icannWildcard, .privateWildcard] : .icannWildcard
        let exceptionKinds: Kinds = includingPrivateDomains ? [.icannException, .privateException] : .icannException

        // Label starts from the right: labelStarts[0] is the last label's start.
        var labelStarts: [String.Index] = []
        var index = name.endIndex
        var suffixLabels = 1  // The default rule "*".
        while true {
            let start: String.Index
            if let dot = name[..<index].lastIndex(of: ".") {
                start = name.index(after: dot)
                index = dot
            } else {
                start = name.startIndex
                index = name.startIndex
            }
            labelStarts.append(start)
            let hasMoreLabels = start != name.startIndex
            guard let kinds = entries[name[start...]] else { break }
            if !kinds.isDisjoint(with: exceptionKinds) {
                // An exception rule prevails over every other rule.
                suffixLabels = labelStarts.count - 1
                break
            }
            if !kinds.isDisjoint(with: ruleKinds) {
                suffixLabels = max(suffixLabels, labelStarts.count)
            }
            if hasMoreLabels, !kinds.isDisjoint(with: wildcardKinds) {
                suffixLabels = max(suffixLabels, labelStarts.count + 1)
            }
            if !hasMoreLabels { break }
        }
        // Make sure the start of the label before the suffix is known.
        while labelStarts.count <= suffixLabels, labelStarts.last != name.startIndex, let last = labelStarts.last {
            let dot = name.index(before: last)
            if let previousDot = name[..<dot].lastIndex(of: ".") {
                labelStarts.append(name.index(after: previousDot))
            } else {
                labelStarts.append(name.startIndex)
            }
        }
        let suffixStart = suffixLabels <= labelStarts.count ? labelStarts[max(suffixLabels - 1, 0)] : name.startIndex
        let registrableStart = suffixLabels < labelStarts.count ? labelStarts[suffixLabels] : nil
        return (name, trailingDot, suffixStart, registrableStart)
    }

    /// Whether the last label is a number, which makes the host an IPv4 address (WHATWG URL).
    private static func endsInNumber(_ name: Substring) -> Bool {
        let last = name.split(separator: ".", omittingEmptySubsequences: false).last ?? name
        if !last.isEmpty, last.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            return true
        }
        if last.hasPrefix("0x") || last.hasPrefix("0X") {
            return last.dropFirst(2).utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"),
                    UInt8(ascii: "A")...UInt8(ascii: "F"): true
                default: false
                }
            }
        }
        return false
    }
}
