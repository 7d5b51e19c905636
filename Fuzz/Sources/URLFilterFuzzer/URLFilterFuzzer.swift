import ContentRuleList
import FuzzSupport

/// A url-filter (or if-top-url / if-frame-url) regex: the first byte chooses case sensitivity,
/// the rest is the pattern.
///
/// Invariants: parsing never traps; an error's offset lies inside the pattern; a parsed filter
/// answers the same for a URL as a string and as its UTF-8 bytes, and matching the pattern's own
/// text never traps.
@_cdecl("LLVMFuzzerTestOneInput")
public func urlFilterFuzzer(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes = FuzzInput.bytes(start, count)
    guard let flags = bytes.first else { return 0 }
    let pattern = String(decoding: bytes.dropFirst(), as: UTF8.self)
    let filter: URLFilter
    do throws(URLFilterError) {
        filter = try URLFilter(parsing: pattern, isCaseSensitive: flags & 1 == 1)
    } catch {
        require((0...pattern.utf8.count).contains(error.offset), "error offset \(error.offset) outside the pattern: \(error)")
        return 0
    }
    for url in FuzzRequests.urls + [pattern, "https://" + pattern] {
        let answer = filter.matches(url)
        var utf8 = Array(url.utf8)
        let bytesAnswer = utf8.withUnsafeMutableBufferPointer { filter.matches(utf8: UnsafeBufferPointer($0)) }
        require(answer == bytesAnswer, "\(url): matches as a string \(answer), as bytes \(bytesAnswer)")
    }
    return 0
}
