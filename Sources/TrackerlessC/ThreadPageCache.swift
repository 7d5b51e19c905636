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
