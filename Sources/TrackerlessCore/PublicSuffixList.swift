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

    // Every rule's suffix and every shorter suffix of it is an entry, so a lookup walking a host's
    // labels from the right can stop at the first miss. `*.ck` is stored under `ck`, `!www.ck`
    // under `www.ck`. Entries are found by a hash of their bytes taken right to left, which a
    // lookup computes incrementally while it walks the host.

    /// Hash of an entry -> its index.
    private var table: [UInt64: Int32] = [:]
    /// The entries' bytes, back to back.
    private var entryBytes: [UInt8] = []
    /// Where each entry starts in `entryBytes`; one extra element marks the end of the last.
    private var entryStarts: [Int32] = [0]
    private var entryKinds: [Kinds] = []
    /// Entries whose hash collides with an earlier entry's (practically never used).
    private var collisions: [String: Kinds] = [:]

    /// The list compiled into the library (see `Scripts/generate-public-suffix-data.py`).
    public static let bundled = PublicSuffixList(parsing: bundledRules)

    /// Parses the list's text format: one rule per line, `//` comments, and the
    /// `===BEGIN PRIVATE DOMAINS===` marker (or the generator's `===PRIVATE===`) before the
    /// private rules. Non-ASCII rules are converted to punycode; malformed rules are skipped.
    public init(parsing datText: String) {
        table.reserveCapacity(16_384)
        entryKinds.reserveCapacity(16_384)
        entryStarts.reserveCapacity(16_384)
        entryBytes.reserveCapacity(datText.utf8.count)
        var isPrivate = false
        let privateMarkers = [Array("===BEGIN PRIVATE DOMAINS===".utf8), Array("===PRIVATE===".utf8)]
        let icannMarker = Array("===BEGIN ICANN DOMAINS===".utf8)
        var text = datText
        text.withUTF8 { utf8 in
            var lineStart = 0
            while lineStart < utf8.count {
                var lineEnd = lineStart
                while lineEnd < utf8.count, utf8[lineEnd] != 0x0A, utf8[lineEnd] != 0x0D { lineEnd += 1 }
                var start = lineStart
                while start < lineEnd, utf8[start] == 0x20 || utf8[start] == 0x09 { start += 1 }
                let line = UnsafeBufferPointer(rebasing: utf8[start..<lineEnd])
                lineStart = lineEnd + 1
                if privateMarkers.contains(where: { Self.contains(line, $0) }) {
                    isPrivate = true
                } else if Self.contains(line, icannMarker) {
                    isPrivate = false
                } else if !line.isEmpty, !(line.count >= 2 && line[0] == UInt8(ascii: "/") && line[1] == UInt8(ascii: "/")) {
                    let wordEnd = line.firstIndex(where: { $0 == 0x20 || $0 == 0x09 }) ?? line.count
                    add(rule: Array(line[0..<wordEnd]), isPrivate: isPrivate)
                }
            }
        }
    }

    private static func contains(_ line: UnsafeBufferPointer<UInt8>, _ needle: [UInt8]) -> Bool {
        guard line.count >= needle.count else { return false }
        for offset in 0...(line.count - needle.count) {
            var matches = true
            for index in 0..<needle.count where line[offset + index] != needle[index] {
                matches = false
                break
            }
            if matches { return true }
        }
        return false
    }

    private mutating func add(rule word: [UInt8], isPrivate: Bool) {
        var rule = word[...]
        var kind: Kinds = isPrivate ? .privateRule : .icannRule
        if rule.first == UInt8(ascii: "!") {
            rule = rule.dropFirst()
            kind = isPrivate ? .privateException : .icannException
        } else if rule.starts(with: "*.".utf8) {
            rule = rule.dropFirst(2)
            kind = isPrivate ? .privateWildcard : .icannWildcard
        }
        if rule.contains(where: { $0 >= 0x80 || ($0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z")) }) {
            guard let ascii = String(decoding: rule, as: UTF8.self).punycodeEncodedDomain else { return }
            rule = Array(ascii.utf8)[...]
        }
        guard !rule.isEmpty, !rule.contains(UInt8(ascii: "*")), !rule.contains(UInt8(ascii: "!")),
            rule.first != UInt8(ascii: "."), rule.last != UInt8(ascii: ".")
        else { return }
        insert(rule, kind)
        var index = rule.startIndex
        while index < rule.endIndex {
            if rule[index] == UInt8(ascii: ".") { insert(rule[(index + 1)...], []) }
            index += 1
        }
    }

    private mutating func insert(_ suffix: ArraySlice<UInt8>, _ kinds: Kinds) {
        var hash = Self.hashSeed
        for byte in suffix.reversed() { hash = Self.hash(hash, byte) }
        if let existing = table[hash] {
            if entryEquals(Int(existing), suffix) {
                entryKinds[Int(existing)].formUnion(kinds)
            } else {
                collisions[String(decoding: suffix, as: UTF8.self), default: []].formUnion(kinds)
            }
            return
        }
        table[hash] = Int32(entryKinds.count)
        entryBytes.append(contentsOf: suffix)
        entryStarts.append(Int32(entryBytes.count))
        entryKinds.append(kinds)
    }

    private func entryEquals(_ entry: Int, _ bytes: some Collection<UInt8>) -> Bool {
        let start = Int(entryStarts[entry])
        let end = Int(entryStarts[entry + 1])
        return entryBytes[start..<end].elementsEqual(bytes)
    }

    /// The rule kinds stored for `suffix` whose right-to-left hash is `hash`; nil when absent.
    private func kinds(hash: UInt64, suffix: UnsafeBufferPointer<UInt8>) -> Kinds? {
        guard let entry = table[hash] else { return nil }
        if entryEquals(Int(entry), suffix) { return entryKinds[Int(entry)] }
        return collisions.isEmpty ? nil : collisions[String(decoding: suffix, as: UTF8.self)]
    }

    // FNV-1a, 64-bit.
    private static let hashSeed: UInt64 = 0xcbf2_9ce4_8422_2325
    private static func hash(_ hash: UInt64, _ byte: UInt8) -> UInt64 {
        (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
    }

    // MARK: Entries

    /// Every stored entry with the kinds of rule it carries, ICANN and private alike: `isRule`
    /// (`x`), `isWildcard` (`*.x`), `isException` (`!x`); an entry with none only leads to longer
    /// rules. What a copy of the list elsewhere (the blocking script's) needs to give this list's
    /// answers with private domains included.
    package func entries() -> [(suffix: String, isRule: Bool, isWildcard: Bool, isException: Bool)] {
        var result: [(suffix: String, isRule: Bool, isWildcard: Bool, isException: Bool)] = []
        result.reserveCapacity(entryKinds.count + collisions.count)
        func append(_ suffix: String, _ kinds: Kinds) {
            result.append((
                suffix, !kinds.isDisjoint(with: [.icannRule, .privateRule]),
                !kinds.isDisjoint(with: [.icannWildcard, .privateWildcard]),
                !kinds.isDisjoint(with: [.icannException, .privateException])))
        }
        for index in entryKinds.indices {
            append(String(decoding: entryBytes[Int(entryStarts[index])..<Int(entryStarts[index + 1])], as: UTF8.self), entryKinds[index])
        }
        for (suffix, kinds) in collisions { append(suffix, kinds) }
        return result
    }

    // MARK: Lookups

    /// The public suffix of `host` (`co.uk` for `www.example.co.uk`); the host itself when it is a
    /// public suffix; nil for IP literals and malformed or empty hosts.
    ///
    /// - Parameters:
    ///   - host: A host name; uppercase and non-ASCII labels are converted first.
    ///   - includingPrivateDomains: Whether rules from the list's private section (`github.io`)
    ///     count; when false only ICANN rules do.
    public func publicSuffix(of host: String, includingPrivateDomains: Bool = true) -> String? {
        lookUp(host, includingPrivateDomains, registrable: false)
    }

    /// eTLD+1 of a lowercase ASCII (punycode) host; nil for IP literals, empty hosts and hosts that are themselves public suffixes.
    ///
    /// For example `example.co.uk` for `www.example.co.uk`, and `user.github.io` for
    /// `a.user.github.io` unless `includingPrivateDomains` is false (then `github.io`). Uppercase
    /// and non-ASCII hosts are converted first; a trailing dot is kept (`example.com.`).
    public func registrableDomain(of host: String, includingPrivateDomains: Bool = true) -> String? {
        lookUp(host, includingPrivateDomains, registrable: true)
    }

    private func lookUp(_ host: String, _ includingPrivateDomains: Bool, registrable: Bool) -> String? {
        var name = host
        // Over the contiguous bytes: searching the UTF-8 view cost more than the lookup itself.
        if name.withUTF8({ $0.contains { $0 >= 0x80 || ($0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z")) } }) {
            guard let ascii = name.punycodeEncodedDomain else { return nil }
            name = ascii
        }
        return name.withUTF8 { utf8 -> String? in
            guard let start = startOfResult(utf8, includingPrivateDomains, registrable: registrable) else {
                return nil
            }
            return String(decoding: UnsafeBufferPointer(rebasing: utf8[start...]), as: UTF8.self)
        }
    }

    /// Where the public suffix (or the registrable domain) starts in `host`; nil when there is none.
    private func startOfResult(
        _ host: UnsafeBufferPointer<UInt8>, _ includingPrivateDomains: Bool, registrable: Bool
    ) -> Int? {
        // The name without one trailing dot; that dot stays part of the result.
        var end = host.count
        if end > 0, host[end - 1] == UInt8(ascii: ".") { end -= 1 }
        guard end > 0, host[0] != UInt8(ascii: ".") else { return nil }
        var previous: UInt8 = 0
        for index in 0..<end {
            let byte = host[index]
            if byte == UInt8(ascii: ":") || byte == UInt8(ascii: "[") { return nil }
            if byte == UInt8(ascii: "."), previous == UInt8(ascii: ".") { return nil }
            previous = byte
        }
        if Self.endsInNumber(host, end: end) { return nil }

        let ruleKinds: Kinds = includingPrivateDomains ? [.icannRule, .privateRule] : .icannRule
        let wildcardKinds: Kinds = includingPrivateDomains ? [.icannWildcard, .privateWildcard] : .icannWildcard
        let exceptionKinds: Kinds = includingPrivateDomains ? [.icannException, .privateException] : .icannException

        // Walk labels from the right, hashing the suffix as it grows.
        var hash = Self.hashSeed
        var labelEnd = end
        var labelsSeen = 0
        var suffixLabels = 1  // The default rule "*".
        while true {
            var index = labelEnd - 1
            while index >= 0, host[index] != UInt8(ascii: ".") {
                hash = Self.hash(hash, host[index])
                index -= 1
            }
            labelsSeen += 1
            let hasMoreLabels = index >= 0
            let suffix = UnsafeBufferPointer(rebasing: host[(index + 1)..<end])
            guard let kinds = kinds(hash: hash, suffix: suffix) else { break }
            if !kinds.isDisjoint(with: exceptionKinds) {
                // An exception rule prevails over every other rule.
                suffixLabels = labelsSeen - 1
                break
            }
            if !kinds.isDisjoint(with: ruleKinds) { suffixLabels = max(suffixLabels, labelsSeen) }
            if hasMoreLabels, !kinds.isDisjoint(with: wildcardKinds) {
                suffixLabels = max(suffixLabels, labelsSeen + 1)
            }
            guard hasMoreLabels else { break }
            hash = Self.hash(hash, UInt8(ascii: "."))
            labelEnd = index
        }
        let wantedLabels = registrable ? suffixLabels + 1 : suffixLabels
        // Find the start of the label `wantedLabels` from the right.
        var labels = 0
        var index = end - 1
        while index >= 0 {
            if host[index] == UInt8(ascii: ".") {
                labels += 1
                if labels == wantedLabels { return index + 1 }
            }
            index -= 1
        }
        return labels + 1 == wantedLabels ? 0 : nil
    }

    /// Whether the list has a rule for the last label of `host` (`com`, `uk`); false for a
    /// top-level domain it does not list (`example`, `test`, `local`), where only the default
    /// rule `*` applies. `host` is lowercase ASCII, as a canonical URL has it.
    package func listsTopLevelDomain(of host: String) -> Bool {
        var name = host
        return name.withUTF8 { bytes -> Bool in
            var end = bytes.count
            if end > 0, bytes[end - 1] == UInt8(ascii: ".") { end -= 1 }
            var index = end - 1
            var hash = Self.hashSeed
            while index >= 0, bytes[index] != UInt8(ascii: ".") {
                hash = Self.hash(hash, bytes[index])
                index -= 1
            }
            guard index + 1 < end else { return false }
            return kinds(hash: hash, suffix: UnsafeBufferPointer(rebasing: bytes[(index + 1)..<end])) != nil
        }
    }

    /// Whether the last label is a number, which makes the host an IPv4 address (WHATWG URL).
    private static func endsInNumber(_ host: UnsafeBufferPointer<UInt8>, end: Int) -> Bool {
        var start = end
        while start > 0, host[start - 1] != UInt8(ascii: ".") { start -= 1 }
        let label = UnsafeBufferPointer(rebasing: host[start..<end])
        guard !label.isEmpty else { return false }
        if label.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) { return true }
        guard label.count >= 2, label[0] == UInt8(ascii: "0"), label[1] | 0x20 == UInt8(ascii: "x") else { return false }
        return label.dropFirst(2).allSatisfy { byte in
            (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "f"))
        }
    }
}
