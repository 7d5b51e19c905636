import ContentRuleList
import RuleEngineKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One `RuleEngine.PageCache` per thread, so that `tl_engine_decide` called from any thread
/// computes each page's conditions once, as a Swift host's own cache would. A cache serves every
/// engine: it starts over when it sees another engine's tables.
final class ThreadPageCache {
    /// Kept behind a pointer, so that passing it `inout` needs no exclusivity check of a class
    /// property on every load.
    private let cache: UnsafeMutablePointer<RuleEngine.PageCache> = {
        let pointer = UnsafeMutablePointer<RuleEngine.PageCache>.allocate(capacity: 1)
        pointer.initialize(to: RuleEngine.PageCache())
        return pointer
    }()

    deinit {
        cache.deinitialize(count: 1)
        cache.deallocate()
    }

    /// The decision for a load whose URLs are NUL-terminated UTF-8, read in place.
    func decide(
        _ engine: RuleEngine, url: UnsafePointer<CChar>, topURL: UnsafePointer<CChar>, frameURL: UnsafePointer<CChar>?,
        type: ResourceType, method: RequestMethod?
    ) -> RuleEngine.Decision {
        engine.decision(
            utf8: Self.bytes(url), topURL: Self.bytes(topURL), frameURL: frameURL.map(Self.bytes), resourceType: type,
            method: method, cache: &cache.pointee)
    }

    /// Every action applied to the load, each with the index of its list and of its rule.
    func actions(
        _ engine: RuleEngine, url: UnsafePointer<CChar>, topURL: UnsafePointer<CChar>, frameURL: UnsafePointer<CChar>?,
        type: ResourceType, method: RequestMethod?
    ) -> AppliedActions {
        let request = Request(
            url: String(decoding: Self.bytes(url), as: UTF8.self), topURL: String(decoding: Self.bytes(topURL), as: UTF8.self),
            frameURL: frameURL.map { String(decoding: Self.bytes($0), as: UTF8.self) }, resourceType: type, method: method)
        return engine.actions(for: request, cache: &cache.pointee)
    }

    /// The bytes of a C string, without its NUL.
    @inline(__always)
    private static func bytes(_ string: UnsafePointer<CChar>) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: UnsafeRawPointer(string).assumingMemoryBound(to: UInt8.self), count: strlen(string))
    }

    /// Calls `body` with the calling thread's cache, made at its first use and released when the
    /// thread ends; the thread's reference is lent to `body`, not retained for each call.
    @inline(__always)
    static func withCurrent<Result>(_ body: (ThreadPageCache) -> Result) -> Result {
        if let pointer = pthread_getspecific(key) {
            return Unmanaged<ThreadPageCache>.fromOpaque(pointer)._withUnsafeGuaranteedRef(body)
        }
        let cache = ThreadPageCache()
        pthread_setspecific(key, Unmanaged.passRetained(cache).toOpaque())
        return body(cache)
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        #if canImport(Glibc)
        pthread_key_create(&key) { pointer in
            if let pointer { Unmanaged<ThreadPageCache>.fromOpaque(pointer).release() }
        }
        #else
        pthread_key_create(&key) { pointer in Unmanaged<ThreadPageCache>.fromOpaque(pointer).release() }
        #endif
        return key
    }()
}
