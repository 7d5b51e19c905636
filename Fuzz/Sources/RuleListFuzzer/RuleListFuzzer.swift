import ContentRuleList
import FuzzSupport
import RuleEngineKit

/// WebKit content-blocker rule lists as a host downloads them, through the parser and validator
/// (url-filter regexes, conditions, CSS selectors), the rule engine and its compiled file.
///
/// Invariants: parsing never traps; an accepted list encodes to JSON that parses to the same list;
/// the engine compiles every accepted list and decides every sample load as the reference
/// evaluator does; its compiled file loads back and decides alike. For every WebKit target: the
/// list as that WebKit reads it encodes to JSON it reads alike, with no key it ignores, and the
/// engine for that target decides as the reference evaluator for it (but Safari 15's third party
/// by origin, which the engine leaves to the evaluator).
@_cdecl("LLVMFuzzerTestOneInput")
public func ruleListFuzzer(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes = FuzzInput.bytes(start, count)
    for target in WebKitTarget.all where target != .newest { checkTarget(target, bytes) }
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

/// The invariants for one target.
private func checkTarget(_ target: WebKitTarget, _ bytes: [UInt8]) {
    var warnings: [RuleListWarning] = []
    let list: RuleList
    do throws(RuleListError) {
        list = try RuleList(parsing: bytes, for: target, warnings: &warnings)
    } catch {
        _ = error.description
        return
    }
    var again: [RuleListWarning] = []
    do throws(RuleListError) {
        let reread = try RuleList(parsing: list.encoded(), for: target, warnings: &again)
        require(reread == list, "\(target): a list it accepted encodes to JSON it reads as another list")
    } catch {
        fatalError("\(target): a list it accepted encodes to JSON it refuses: \(error)")
    }
    require(again.isEmpty, "\(target): a list as it reads it still has a key it ignores: \(again)")
    guard target.thirdParty != .origin else { return }
    let engine: RuleEngine, reference: ReferenceEvaluator
    do throws(RuleListError) {
        engine = try RuleEngine(ruleList: list, target: target)
        reference = try ReferenceEvaluator(ruleList: list, target: target)
    } catch {
        fatalError("\(target): an accepted list does not compile: \(error)")
    }
    for request in FuzzLoads.requests {
        let expected = reference.actions(for: request)
        let decided = engine.actions(for: request)
        require(decided == expected, "\(target) \(request): the engine applies \(decided), the reference evaluator \(expected)")
    }
}
