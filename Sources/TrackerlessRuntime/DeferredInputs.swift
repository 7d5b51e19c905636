import Foundation
import TrackerDataKit

/// The parsed inputs of a ``ProtectionSet`` and its resolver, made once, on first use.
///
/// A set built now has them at once. A set loaded from the cache needs the blocklist parsed only
/// for its resolver (the statistics, the site toggles), not to protect: its rule lists, scripts
/// and engine come from the cache. So a warm launch parses every small input at once, and errors
/// there are thrown as before, but leaves the blocklist's bytes to be parsed on first use (the
/// runtime starts that in the background), off the path to a protected web view.
///
/// The blocklist's bytes parsed before: the set identity hashes these very bytes
/// with the SDK version, and the cache holds only sets that were built, so parsed, from them.
/// Should a parse fail all the same (a parser changed without ``ProtectionSet/sdkVersion``),
/// the set keeps protecting with its cached artifacts, its resolver knows no tracker, and
/// ``failure`` says why (``ProtectionRuntime/lastStorageError`` reports it).
final class DeferredInputs: @unchecked Sendable {
    /// Every input but the blocklist, parsed.
    let others: OtherInputs

    private let lock = NSLock()
    /// The blocklist still to parse: its bytes and the file name its errors give.
    private var pending: InputBytes?
    private var parsedValue: ParsedInputs?
    private var resolverValue: TrackerResolver?
    private var failureValue: ProtectionError?

    /// Inputs already parsed, and their resolver when it is made already.
    init(parsed: ParsedInputs, resolver: TrackerResolver?) {
        others = OtherInputs(
            configuration: parsed.configuration, userAllowlist: parsed.userAllowlist, surrogates: parsed.surrogates,
            settings: parsed.settings, navigation: parsed.navigation, webKit: parsed.webKit, ruleLists: parsed.ruleLists)
        parsedValue = parsed
        resolverValue = resolver
    }

    /// Inputs whose blocklist is parsed on first use.
    init(bytes: InputBytes, others: OtherInputs) {
        self.others = others
        pending = bytes
    }

    /// The parsed inputs; parses the blocklist the first time, other callers waiting for it.
    var parsed: ParsedInputs {
        lock.lock()
        defer { lock.unlock() }
        return parsedLocked()
    }

    /// The resolver of the inputs, made the first time.
    var resolver: TrackerResolver {
        lock.lock()
        defer { lock.unlock() }
        if let resolverValue { return resolverValue }
        let resolver = parsedLocked().resolver()
        resolverValue = resolver
        return resolver
    }

    /// Whether the blocklist is parsed already; false while it is being parsed. Never waits.
    var hasParsedTrackerData: Bool {
        guard lock.try() else { return false }
        defer { lock.unlock() }
        return parsedValue != nil
    }

    /// Why the blocklist could not be parsed on first use; nil when it was, or is not yet (also
    /// while it is being parsed: this never waits for the parse).
    var failure: ProtectionError? {
        guard lock.try() else { return nil }
        defer { lock.unlock() }
        return failureValue
    }

    private func parsedLocked() -> ParsedInputs {
        if let parsedValue { return parsedValue }
        var trackerData = TrackerData()
        if let pending {
            do throws(ProtectionError) {
                trackerData = try pending.parseTrackerData()
            } catch {
                failureValue = error
            }
        }
        pending = nil
        let parsed = ParsedInputs(trackerData: trackerData, others: others)
        parsedValue = parsed
        return parsed
    }
}
