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
    private var cache = RuleEngine.PageCache()
    /// The last top URL as the caller passed it (NUL-terminated) and as a String: a page's loads
    /// share their top URL, so most calls make only the request URL's String.
    private var lastTopBytes: [CChar] = [0]
    private var lastTop = ""

    /// `topURL` as a String, reused while the caller passes the same bytes.
    func topURL(_ pointer: UnsafePointer<CChar>) -> String {
        if strcmp(pointer, lastTopBytes) == 0 { return lastTop }
        let length = strlen(pointer)
        lastTopBytes = Array(UnsafeBufferPointer(start: pointer, count: length + 1))
        lastTop = String(cString: pointer)
        return lastTop
    }

    func decide(_ engine: RuleEngine, _ request: Request) -> RuleEngine.Decision {
        engine.decision(for: request, cache: &cache)
    }

    /// The calling thread's cache, made at its first use and released when the thread ends.
    static var current: ThreadPageCache {
        if let pointer = pthread_getspecific(key) { return Unmanaged<ThreadPageCache>.fromOpaque(pointer).takeUnretainedValue() }
        let cache = ThreadPageCache()
        pthread_setspecific(key, Unmanaged.passRetained(cache).toOpaque())
        return cache
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
