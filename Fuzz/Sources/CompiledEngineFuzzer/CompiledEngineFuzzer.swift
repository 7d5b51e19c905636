import ContentRuleList
import FuzzSupport
import RuleEngineKit

/// Compiled engine files (`trackerless compile`, `RuleEngine.compiled()`), as a host reads them
/// from its cache.
///
/// An input that starts with the file's signature is loaded as it is, so that the header checks
/// are fuzzed too; any other input is taken as a payload and given a valid header (length and
/// checksum), so that mutations reach the tables behind the checksum.
///
/// Invariants: loading never traps; a loaded engine decides the sample loads without trapping,
/// and its own compiled file loads back and decides alike.
@_cdecl("LLVMFuzzerTestOneInput")
public func compiledEngineFuzzer(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let input = FuzzInput.bytes(start, count)
    let bytes = input.starts(with: CompiledHeader.signature) ? input : CompiledHeader.wrap(input)
    let engine: RuleEngine
    do throws(CompiledEngineError) {
        engine = try RuleEngine(compiled: bytes)
    } catch {
        _ = error.description
        return 0
    }
    let decisions = FuzzLoads.requests.map(engine.actions(for:))
    let reloaded: RuleEngine
    do throws(CompiledEngineError) {
        reloaded = try RuleEngine(compiled: engine.compiled())
    } catch {
        fatalError("a loaded engine writes a file that does not load: \(error)")
    }
    require(FuzzLoads.requests.map(reloaded.actions(for:)) == decisions, "the reloaded engine decides otherwise")
    return 0
}
