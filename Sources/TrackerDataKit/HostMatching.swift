import TrackerlessCore

/// Host comparisons shared by the tds lookups, rule conditions and the privacy configuration.
enum HostMatching {
    /// Calls `body` with `host` and then each parent domain that still contains a dot
    /// (`a.b.example.com`, `b.example.com`, `example.com`), stopping at the first non-nil result.
    ///
    /// This is the "suffix walk" of Tracker Radar: a bare top-level domain is never a candidate.
    static func firstSuffix<T>(of host: String, _ body: (String) -> T?) -> T? {
        if let found = body(host) { return found }
        // ASCII hosts (every host a URL parser gives): the dots found in the bytes, where
        // `Character` comparisons and Foundation's `contains` would cost more than the lookups.
        // A candidate starts after each dot but the last.
        var host = host
        let found: T?? = host.withUTF8 { bytes -> T?? in
            var lastDot = -1
            for index in bytes.indices {
                let byte = bytes[index]
                if byte >= 0x80 { return .none }
                if byte == UInt8(ascii: ".") { lastDot = index }
            }
            var index = 0
            while index < lastDot {
                if bytes[index] == UInt8(ascii: "."),
                    let result = body(String(decoding: UnsafeBufferPointer(rebasing: bytes[(index + 1)...]), as: UTF8.self))
                {
                    return .some(result)
                }
                index += 1
            }
            return .some(nil)
        }
        if let found { return found }
        var rest = Substring(host)
        while let dot = rest.firstIndex(of: ".") {
            rest = rest[rest.index(after: dot)...]
            guard rest.contains(".") else { return nil }
            if let found = body(String(rest)) { return found }
        }
        return nil
    }

    /// Whether `host` is `domain` or a subdomain of it, on label boundaries and ignoring ASCII
    /// case (`a.example.com` is within `example.com`, `badexample.com` is not).
    static func host(_ host: String, isWithin domain: String) -> Bool {
        let host = host.utf8
        let domain = domain.utf8
        guard !domain.isEmpty, host.count >= domain.count else { return false }
        var hostIndex = host.endIndex
        var domainIndex = domain.endIndex
        while domainIndex > domain.startIndex {
            host.formIndex(before: &hostIndex)
            domain.formIndex(before: &domainIndex)
            if lowercased(host[hostIndex]) != lowercased(domain[domainIndex]) { return false }
        }
        return hostIndex == host.startIndex || host[host.index(before: hostIndex)] == UInt8(ascii: ".")
    }

    /// A domain as ``CanonicalURL`` spells hosts: lowercase ASCII, non-ASCII labels in Punycode.
    /// Does not allocate when the domain already is, which is nearly always: this runs for every
    /// key of a 3 MB blocklist.
    static func normalized(_ domain: String) -> String {
        let isNormal = domain.utf8.withContiguousStorageIfAvailable { bytes in
            // Bytes outside "A"..."Z" and below 0x80 need no change; one OR-reduction finds both.
            var needsWork = false
            for byte in bytes where byte >= 0x80 || (byte &- UInt8(ascii: "A")) < 26 {
                needsWork = true
                break
            }
            return !needsWork
        }
        if isNormal == true { return domain }
        if domain.utf8.contains(where: { $0 >= 0x80 }) {
            return domain.punycodeEncodedDomain ?? domain.lowercased()
        }
        return domain.lowercased()
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
    }
}
