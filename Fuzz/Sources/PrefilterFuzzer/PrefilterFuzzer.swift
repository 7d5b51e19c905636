import FuzzSupport
import URLPrefilter

/// The URL prefilter's inputs: the first byte chooses the format, the rest is the file.
/// 0: an entries list (`prefilter --entries`, one host or URL prefix a line); 1: `prefilter.json`
/// as written by `trackerless prefilter`.
///
/// Invariants: reading never traps; a filter built from the entries contains every entry (a
/// Bloom filter has no false negatives); a read `prefilter.json` writes back bytes that read to
/// the same filter.
@_cdecl("LLVMFuzzerTestOneInput")
public func prefilterFuzzer(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    guard let (format, bytes) = FuzzInput.format(start, count, of: 2) else { return 0 }
    if format == 0 {
        guard let entries = try? PrefilterEntries(lines: String(decoding: bytes, as: UTF8.self), source: "entries.txt") else {
            return 0
        }
        let prefilter: Prefilter
        do throws(PrefilterError) {
            prefilter = try Prefilter(entries: entries, falsePositiveRate: 0.01, murmurSeed: 7)
        } catch {
            fatalError("entries that read do not build a filter: \(error)")
        }
        for entry in entries.entries {
            require(prefilter.bloomFilter.contains(entry), "\(entry) was inserted but is not contained")
        }
    } else {
        guard let prefilter = try? Prefilter(parsing: bytes) else { return 0 }
        let written = prefilter.jsonBytes()
        let again: Prefilter
        do throws(PrefilterError) {
            again = try Prefilter(parsing: written)
        } catch {
            fatalError("a read prefilter.json writes bytes that do not read: \(error)")
        }
        require(again.jsonBytes() == written, "a read prefilter.json does not write back the same bytes")
    }
    return 0
}
