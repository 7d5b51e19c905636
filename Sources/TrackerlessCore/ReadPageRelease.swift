#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The pages of a document's buffer that a ``JSONReader`` has read past, given back to the system
/// (`madvise(MADV_DONTNEED)`: the pages read as zeros afterwards, and no longer count as
/// resident), a few megabytes at a time. Elsewhere than Linux it gives nothing back.
struct ReadPageRelease {
    /// How far the reader moves between two releases.
    static let step = 8 << 20

    private let base: UnsafeMutableRawPointer?
    private let count: Int
    private let pageSize: Int
    /// The offset below which every whole page has been given back.
    private var releasedUpTo = 0
    /// The reader's position at which the next release is due.
    private(set) var nextRelease: Int

    /// Releases in `buffer`, which the reader owns alone and reads no further once released.
    init(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
        base = UnsafeMutableRawPointer(buffer.baseAddress)
        count = buffer.count
        #if canImport(Glibc) || canImport(Musl)
        pageSize = max(Int(sysconf(Int32(_SC_PAGESIZE))), 1)
        nextRelease = base == nil ? .max : Self.step
        #else
        pageSize = 1
        nextRelease = .max
        #endif
    }

    /// Gives back the whole pages before `offset`.
    mutating func release(before offset: Int) {
        nextRelease = offset + Self.step
        guard let base, offset <= count else { return }
        // Whole pages only: the first and the last may hold other memory (the buffer's header).
        let address = Int(bitPattern: base)
        let start = (address + releasedUpTo + pageSize - 1) / pageSize * pageSize
        let end = (address + offset) / pageSize * pageSize
        guard end > start else { return }
        #if canImport(Glibc) || canImport(Musl)
        _ = madvise(UnsafeMutableRawPointer(bitPattern: start), end - start, Int32(MADV_DONTNEED))
        #endif
        releasedUpTo = end - address
    }
}
