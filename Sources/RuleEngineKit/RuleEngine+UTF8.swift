public import ContentRuleList
import TrackerlessCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// A load given as UTF-8 bytes, as a host that is not Swift holds its URLs (the C API): decided
// without making a String of the request URL, and with the page's own Strings when the cache
// already knows the page, so that a load of a known page allocates nothing.

extension RuleEngine {
    /// The decision for one load whose URLs are UTF-8 bytes: the same answer as
    /// ``decision(for:cache:)`` for the `Request` of those URLs (decoded as `String(decoding:as:)`
    /// decodes them), with the same cache.
    ///
    /// - Parameters:
    ///   - url: the URL loaded.
    ///   - topURL: the main document's URL.
    ///   - frameURL: the document of the frame that issues the load; nil for the main frame.
    ///   - resourceType: the kind of load.
    ///   - method: the document request's HTTP method; nil means GET.
    ///   - cache: the caller's page cache (one per thread).
    public func decision(
        utf8 url: UnsafeBufferPointer<UInt8>, topURL: UnsafeBufferPointer<UInt8>, frameURL: UnsafeBufferPointer<UInt8>?,
        resourceType: ResourceType, method: RequestMethod? = nil, cache: inout PageCache
    ) -> Decision {
        let top = cache.topKey(equalTo: topURL) ?? String(decoding: topURL, as: UTF8.self)
        let frame = frameURL.map { cache.frameKey(equalTo: $0) ?? String(decoding: $0, as: UTF8.self) }
        // The URL is read as bytes only: a main-frame navigation keys its page by it, so it goes
        // the String way, as does a URL that canonicalization may change.
        var request = Request(url: "", topURL: top, frameURL: frame, resourceType: resourceType, method: method)
        if !request.isMainFrameNavigation, let decision = canonicalDecision(utf8: url, request: request, cache: &cache) {
            return decision
        }
        request.url = String(decoding: url, as: UTF8.self)
        return decision(for: request, cache: &cache)
    }

    /// The decision for a load whose URL `raw` is already canonical (``URLScan/canonicalParts(_:)``),
    /// read in place; nil when it may change under canonicalization. `request.url` is not read
    /// unless the load is a main-frame navigation, whose URL `raw` must then be.
    func canonicalDecision(utf8 raw: UnsafeBufferPointer<UInt8>, request: Request, cache: inout PageCache) -> Decision? {
        guard let parts = URLScan.canonicalParts(raw) else { return nil }
        let host = UnsafeBufferPointer(rebasing: raw[parts.hostStart..<parts.hostEnd])
        guard let insertion = parts.slashInsertion else {
            let bytes = UnsafeBufferPointer(rebasing: raw[0..<parts.length])
            let authority = parts.hostStart..<parts.authorityEnd
            return decide(request, url: bytes, host: host, authority: authority, isUpgradable: parts.isUpgradable, cache: &cache)
        }
        // `https://host` is matched as `https://host/`.
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: parts.length + 1) { buffer in
            var index = 0
            for byte in raw[0..<insertion] {
                buffer[index] = byte
                index += 1
            }
            buffer[index] = UInt8(ascii: "/")
            index += 1
            for byte in raw[insertion..<parts.length] {
                buffer[index] = byte
                index += 1
            }
            return decide(
                request, url: UnsafeBufferPointer(buffer), host: host, authority: parts.hostStart..<insertion,
                isUpgradable: parts.isUpgradable, cache: &cache)
        }
    }
}

extension RuleEngine.PageCache {
    /// The top URL String of a remembered page whose bytes are `bytes`, so that the request
    /// reuses it (and finds its page by identity); nil when no page has it.
    func topKey(equalTo bytes: UnsafeBufferPointer<UInt8>) -> String? {
        if current < entries.count, Self.equal(entries[current].topKey, bytes) { return entries[current].topKey }
        for entry in entries where Self.equal(entry.topKey, bytes) { return entry.topKey }
        return nil
    }

    /// The frame URL String of a remembered page whose bytes are `bytes`; nil when none has it.
    func frameKey(equalTo bytes: UnsafeBufferPointer<UInt8>) -> String? {
        if current < entries.count, let key = entries[current].frameKey, Self.equal(key, bytes) { return key }
        for entry in entries {
            if let key = entry.frameKey, Self.equal(key, bytes) { return key }
        }
        return nil
    }

    /// Whether `key`'s UTF-8 is `bytes`, compared in place.
    @inline(__always)
    private static func equal(_ key: String, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard key.utf8.count == bytes.count else { return false }
        guard bytes.count > 0 else { return true }
        return key.utf8.withContiguousStorageIfAvailable { stored in
            memcmp(stored.baseAddress!, bytes.baseAddress!, bytes.count) == 0
        } ?? key.utf8.elementsEqual(bytes)
    }
}
