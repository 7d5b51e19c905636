import TrackerDataKit

import TrackerlessCore

/// Domain names as WebKit's `if-domain` wants them: lowercase ASCII, IDNs in punycode.
enum SiteDomain {
    /// The lowercase punycode form of a domain from tracker data or a configuration; nil when it
    /// is not a usable host name (WebKit would reject the whole list for it).
    static func normalized(_ domain: String) -> String? {
        if isNormalized(domain) { return domain }
        var bytes = Array(domain.utf8)
        if bytes.starts(with: [UInt8(ascii: "*"), UInt8(ascii: ".")]) { bytes.removeFirst(2) }
        if bytes.last == UInt8(ascii: ".") { bytes.removeLast() }
        guard !bytes.isEmpty else { return nil }
        if bytes.contains(where: { $0 >= 0x80 }) {
            guard let encoded = String(decoding: bytes, as: UTF8.self).punycodeEncodedDomain else { return nil }
            bytes = Array(encoded.utf8)
        }
        var previous: UInt8 = UInt8(ascii: ".")
        var changed = false
        for index in bytes.indices {
            var byte = bytes[index]
            if byte >= 0x41 && byte <= 0x5A {
                byte += 0x20
                bytes[index] = byte
                changed = true
            }
            let allowed = (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39)
                || byte == 0x2D || byte == 0x2E || byte == 0x5F
            // No empty labels: no leading dot and no two dots in a row.
            guard allowed, !(byte == 0x2E && previous == 0x2E) else { return nil }
            previous = byte
        }
        return changed || bytes.count != domain.utf8.count ? String(decoding: bytes, as: UTF8.self) : domain
    }

    /// Whether `domain` already is its normalized form (nearly every domain of a tds.json): then
    /// ``normalized(_:)`` returns it without copying its bytes.
    private static func isNormalized(_ domain: String) -> Bool {
        withUTF8(of: domain) { bytes in
            guard !bytes.isEmpty, bytes[bytes.count - 1] != UInt8(ascii: ".") else { return false }
            var previous = UInt8(ascii: ".")
            for byte in bytes {
                let allowed = (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39)
                    || byte == 0x2D || byte == 0x2E || byte == 0x5F
                guard allowed, !(byte == 0x2E && previous == 0x2E) else { return false }
                previous = byte
            }
            return true
        }
    }

    /// Whether `domain` is `parent` or one of its subdomains.
    static func isDomain(_ domain: String, within parent: String) -> Bool {
        let domainCount = domain.utf8.count, parentCount = parent.utf8.count
        guard domainCount >= parentCount else { return false }
        if domainCount == parentCount { return domain == parent }
        // Over contiguous bytes: comparing the UTF-8 views element by element cost more than the
        // rest of the first-party filtering, which runs for every site of an owner per tracker.
        return withUTF8(of: domain) { domainBytes in
            withUTF8(of: parent) { parentBytes in
                let start = domainCount - parentCount
                return domainBytes[start - 1] == UInt8(ascii: ".")
                    && UnsafeBufferPointer(rebasing: domainBytes[start...]).elementsEqual(parentBytes)
            }
        }
    }

    /// `body` over the UTF-8 bytes of `string`, lent by its UTF-8 view: a `var` copy for
    /// `withUTF8` cost a retain and a release per call, and these run for every domain of every
    /// owner's sites.
    private static func withUTF8<Result>(of string: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        if let result = string.utf8.withContiguousStorageIfAvailable(body) { return result }
        var string = string
        return string.withUTF8(body)
    }
}
