import FuzzSupport
import PrivacyStatsKit
import TrackerDataKit
import TrackerlessCore

/// Script messages as a page can post them, in both forms a host receives: the UTF-8 bytes of
/// the object form and the JSON string of the Android bridge.
///
/// Invariants: decoding never traps; the bytes and the parsed object (the form a web view hands
/// over) decode alike (the same message, or the same rejection); an accepted message encodes to JSON that decodes to the
/// same message; `PrivacyStats` rejects what decoding rejects, for the same reason, and records
/// what it accepts without trapping.
@_cdecl("LLVMFuzzerTestOneInput")
public func scriptMessageFuzzer(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes = FuzzInput.bytes(start, count)
    let accepts: (String) -> Bool = { $0 == ScriptMessageFixture.secret.value }
    let fromBytes = ScriptMessage.decode(.bytes(bytes), acceptsSecret: accepts)
    if bytes.count <= PrivacyStats.Limits.default.maxMessageBytes {
        let full: Result<ScriptMessage, MessageRejection>
        if let value = try? JSONParser.parse(bytes, maxDepth: 16) {
            full = ScriptMessage.decode(.value(value), acceptsSecret: accepts)
        } else {
            full = .failure(.malformedJSON)
        }
        require(full == fromBytes, "bytes decode to \(fromBytes), the parsed object to \(full)")
    }
    if let text = String(validating: bytes, as: UTF8.self) {
        let fromString = ScriptMessage.decode(.json(text), acceptsSecret: accepts)
        require(fromString == fromBytes, "the string form decodes to \(fromString), the bytes to \(fromBytes)")
    }
    if case .success(let message) = fromBytes {
        let encoded = message.jsonValue().jsonBytes()
        let again = ScriptMessage.decode(.bytes(encoded), acceptsSecret: accepts)
        require(again == .success(message), "\(message) encodes to JSON that decodes to \(again)")
    }
    let stats = ScriptMessageFixture.stats
    stats.didCommitNavigation(tab: "1", url: "https://site.example/")
    let result = stats.receive(.bytes(bytes), tab: "1")
    if case .failure(let rejection) = fromBytes {
        require(result == .rejected(rejection), "receive answered \(result) for \(fromBytes)")
    }
    _ = stats.snapshot(tab: "1").jsonValue()
    _ = stats.totals()
    return 0
}
