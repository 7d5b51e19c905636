/// Host names and domains as every module compares them: one rule for "is this host within that
/// domain", one normal form, one walk over parent domains.
///
/// The normal form is the one ``CanonicalURL`` gives hosts: lowercase ASCII, non-ASCII labels in
/// Punycode, no final dot. Lists read from tracker data, a privacy configuration or a user are
/// normalized once when read; ``host(_:isWithin:)`` then compares on label boundaries, ignoring
/// ASCII case, so that a name written `Example.COM` still matches.
///
/// ```swift
/// DomainName.normalized("Bücher.Example.")                  // "xn--bcher-kva.example"
/// DomainName.host("cdn.example.com", isWithin: "example.com")  // true
/// DomainName.host("badexample.com", isWithin: "example.com")   // false
/// DomainName.parentDomains(of: "a.b.example")                  // ["b.example", "example"]
/// ```
public enum DomainName {
    /// Whether `host` is `domain` or a subdomain of it, on label boundaries and ignoring ASCII
    /// case (`a.example.com` is within `example.com`, `badexample.com` is not).
    ///
    /// An empty domain contains no host. A final dot is compared as any other character: hosts
    /// and domains from URLs and lists are ``normalized(_:)`` before they are compared.
    public static func host(_ host: String, isWithin domain: String) -> Bool {
        let hostCount = host.utf8.count, domainCount = domain.utf8.count
        guard domainCount > 0, hostCount >= domainCount else { return false }
        if hostCount == domainCount && host == domain { return true }
        // Over contiguous bytes: this runs for every site of an owner per tracker when rule
        // lists are built, and for every condition a request is checked against.
        let found = host.utf8.withContiguousStorageIfAvailable { hostBytes in
            domain.utf8.withContiguousStorageIfAvailable { domainBytes in isWithin(hostBytes, domainBytes) }
        }
        if let found = found ?? nil { return found }
        var host = host, domain = domain
        return host.withUTF8 { hostBytes in domain.withUTF8 { domainBytes in isWithin(hostBytes, domainBytes) } }
    }

    /// ``host(_:isWithin:)`` over the bytes; `domain` is not empty and not longer than `host`.
    private static func isWithin(_ host: UnsafeBufferPointer<UInt8>, _ domain: UnsafeBufferPointer<UInt8>) -> Bool {
        let start = host.count - domain.count
        if start > 0 && host[start - 1] != UInt8(ascii: ".") { return false }
        for index in 0..<domain.count {
            let hostByte = host[start + index], domainByte = domain[index]
            if hostByte != domainByte && ASCII.lowercased(hostByte) != ASCII.lowercased(domainByte) { return false }
        }
        return true
    }

    /// The domain a protections toggle names for `host`, as DuckDuckGo's toggle sees it: the
    /// normal form (``normalized(_:)``) without one leading `www.`. `www.example.com` and
    /// `example.com` are one domain; `shop.example.com` is another, and `www.www.example.com` is
    /// `www.example.com`'s. The one rule for what a toggle covers: the user allowlist, the
    /// runtime's toggles and every list built from them go through it.
    public static func toggleDomain(_ host: String) -> String {
        let name = normalized(host)
        guard name.utf8.count > 4, name.utf8.starts(with: "www.".utf8) else { return name }
        return String(name.dropFirst(4))
    }

    /// The exact hosts a toggle of `domain` (a ``toggleDomain(_:)``) covers, for what matches
    /// exact hosts only (a rule list's `if-top-url`, the scripts' data): `domain` and `www.domain`.
    public static func toggleHosts(_ domain: String) -> [String] {
        [domain, "www." + domain]
    }

    /// A domain in the normal form: lowercase ASCII, non-ASCII labels in Punycode, without a
    /// final dot (`Bücher.Example.` → `xn--bcher-kva.example`).
    ///
    /// Returns `domain` itself, without copying it, when it already is normal, which is nearly
    /// always: this runs for every key of a 3 MB blocklist. A name Punycode cannot encode is
    /// lowercased and kept.
    public static func normalized(_ domain: String) -> String {
        let isNormal = domain.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            if bytes.last == UInt8(ascii: ".") { return false }
            // Bytes outside "A"..."Z" and below 0x80 need no change.
            for byte in bytes where byte >= 0x80 || (byte &- UInt8(ascii: "A")) < 26 { return false }
            return true
        }
        if isNormal == true { return domain }
        var name = Substring(domain)
        // Every final dot, so that the normal form of a normal form is itself ("a.." is "a", not "a.").
        while name.utf8.last == UInt8(ascii: ".") { name = name.dropLast() }
        if name.utf8.contains(where: { $0 >= 0x80 }) {
            return String(name).punycodeEncodedDomain ?? name.lowercased()
        }
        return String(decoding: name.utf8.map(ASCII.lowercased), as: UTF8.self)
    }

    /// The parent domains of `domain`, nearest first, down to its last label: `a.b.c` → `b.c`, `c`.
    public static func parentDomains(of domain: String) -> [String] {
        var parents: [String] = []
        var rest = domain.utf8[...]
        while let dot = rest.firstIndex(of: UInt8(ascii: ".")) {
            rest = rest[rest.index(after: dot)...]
            if !rest.isEmpty { parents.append(String(Substring(rest))) }
        }
        return parents
    }

    /// The nearest parent of `domain` (`b.c`, then `c` for `a.b.c`) for which `predicate` holds.
    ///
    /// Cheaper than searching ``parentDomains(of:)``: no array, and short parents need no
    /// allocation.
    public static func firstParentDomain(of domain: String, where predicate: (String) -> Bool) -> String? {
        // Over the contiguous bytes: searching a Substring's UTF-8 view cost more than the lookups.
        var domain = domain
        return domain.withUTF8 { bytes in
            var start = 0
            while let dot = bytes[start...].firstIndex(of: UInt8(ascii: ".")) {
                start = dot + 1
                guard start < bytes.count else { return nil }
                let parent = String(decoding: UnsafeBufferPointer(rebasing: bytes[start...]), as: UTF8.self)
                if predicate(parent) { return parent }
            }
            return nil
        }
    }

    /// The first non-nil result of `body` over `host` and then each parent domain that still
    /// contains a dot (`a.b.example.com`, `b.example.com`, `example.com`).
    ///
    /// This is the "suffix walk" of Tracker Radar: a bare top-level domain is never a candidate.
    public static func firstSuffix<T>(of host: String, _ body: (String) -> T?) -> T? {
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
}
