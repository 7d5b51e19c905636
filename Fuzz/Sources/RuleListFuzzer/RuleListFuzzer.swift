import ContentRuleList
import FuzzSupport
import RuleEngineKit

/// WebKit content-blocker rule lists as a host downloads them, through the parser and validator
/// (url-filter regexes, conditions, CSS selectors), the rule engine and its compiled file.
///
/// Invariants: parsing never traps; an accepted list encodes to JSON that parses to the same list;
/// the engine compiles every accepted list and decides every sample load as the reference
/// evaluator does; its compiled file loads back and decides alike.
@_cdecl("LLVMFuzzerTestOneInput")
public func ruleListFuzzer(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes = FuzzInput.bytes(start, count)
    let list: RuleList
    do throws(RuleListError) {
        list = try RuleList(parsing: bytes)
    } catch {
        _ = error.description
        return 0
    }
    let again: RuleList
    do throws(RuleListError) {
        again = try RuleList(parsing: list.encoded())
    } catch {
        fatalError("an accepted list encodes to JSON the parser refuses: \(error)")
    }
    require(again == list, "an accepted list encodes to JSON that parses to another list")
    let engine: RuleEngine, reference: ReferenceEvaluator
    do throws(RuleListError) {
        engine = try RuleEngine(ruleList: list)
        reference = try ReferenceEvaluator(ruleList: list)
    } catch {
        fatalError("an accepted list does not compile: \(error)")
    }
    let loaded: RuleEngine
    do throws(CompiledEngineError) {
        loaded = try RuleEngine(compiled: engine.compiled())
    } catch {
        fatalError("a compiled engine does not load: \(error)")
    }
    for request in FuzzLoads.requests {
        let expected = reference.actions(for: request)
        let decided = engine.actions(for: request)
        require(decided == expected, "\(request): the engine applies \(decided), the reference evaluator \(expected)")
        require(loaded.actions(for: request) == decided, "\(request): the loaded engine decides otherwise")
    }
    return 0
}
