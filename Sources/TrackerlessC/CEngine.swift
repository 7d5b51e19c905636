import ContentRuleList
import RuleEngineKit
import TrackerlessCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// The rule engine through the C API (include/trackerless.h): opaque handles over `RuleEngine`,
// errors as codes with a message. Every argument is checked before use: a C caller's mistake is
// TL_ERROR_INVALID_ARGUMENT, never a trap.

/// The resource types in the order of `tl_resource_type`.
let resourceTypes: [ResourceType] = [
    .topDocument, .childDocument, .image, .styleSheet, .script, .font, .svgDocument, .media, .popup, .ping, .fetch,
    .websocket, .cspReport, .other,
]

@_cdecl("tl_engine_new_from_rule_lists")
public func tl_engine_new_from_rule_lists(
    _ lists: UnsafePointer<UnsafePointer<CChar>?>?, _ lengths: UnsafePointer<UInt>?, _ count: UInt,
    _ engine: UnsafeMutablePointer<OpaquePointer?>?, _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
    guard let engine else { return CStatus.invalidArgument("engine is NULL", error) }
    guard let count = Int(exactly: count), count <= 1 << 20 else { return CStatus.invalidArgument("count is out of range", error) }
    guard count == 0 || (lists != nil && lengths != nil) else { return CStatus.invalidArgument("lists or lengths is NULL", error) }
    var ruleLists: [RuleList] = []
    for index in 0..<count {
        guard let bytes = lists![index] else { return CStatus.invalidArgument("lists[\(index)] is NULL", error) }
        guard let length = Int(exactly: lengths![index]) else { return CStatus.invalidArgument("lengths[\(index)] is out of range", error) }
        let json = Array(UnsafeBufferPointer(start: UnsafeRawPointer(bytes).assumingMemoryBound(to: UInt8.self), count: length))
        do throws(RuleListError) {
            ruleLists.append(try RuleList(parsing: json))
        } catch let failure {
            return CStatus.invalidInput("list \(index): \(failure)", error: error)
        }
    }
    do throws(RuleListError) {
        engine.pointee = EngineHandle.retained(try RuleEngine(ruleLists: ruleLists))
        return CStatus.ok
    } catch let failure {
        return CStatus.invalidInput("\(failure)", error: error)
    }
}

@_cdecl("tl_engine_new_from_compiled")
public func tl_engine_new_from_compiled(
    _ bytes: UnsafePointer<UInt8>?, _ length: UInt, _ engine: UnsafeMutablePointer<OpaquePointer?>?,
    _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
    guard let engine else { return CStatus.invalidArgument("engine is NULL", error) }
    guard let length = Int(exactly: length), bytes != nil || length == 0 else {
        return CStatus.invalidArgument("bytes is NULL or length is out of range", error)
    }
    let file = length == 0 ? [] : Array(UnsafeBufferPointer(start: bytes, count: length))
    do throws(CompiledEngineError) {
        engine.pointee = EngineHandle.retained(try RuleEngine(compiled: file))
        return CStatus.ok
    } catch let failure {
        return CStatus.invalidInput("\(failure)", error: error)
    }
}

@_cdecl("tl_engine_compiled")
public func tl_engine_compiled(
    _ engine: OpaquePointer?, _ bytes: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?, _ length: UnsafeMutablePointer<UInt>?
) -> Int32 {
    guard let engine, let bytes, let length else { return CStatus.invalidArgument("engine, bytes or length is NULL", nil) }
    let file = EngineHandle.borrow(engine).compiled()
    guard let buffer = malloc(max(1, file.count))?.assumingMemoryBound(to: UInt8.self) else {
        return CStatus.invalidArgument("out of memory for \(file.count) bytes", nil)
    }
    file.withUnsafeBufferPointer { source in
        if let base = source.baseAddress { buffer.update(from: base, count: file.count) }
    }
    bytes.pointee = buffer
    length.pointee = UInt(file.count)
    return CStatus.ok
}

@_cdecl("tl_engine_free")
public func tl_engine_free(_ engine: OpaquePointer?) {
    guard let engine else { return }
    Unmanaged<EngineHandle>.fromOpaque(UnsafeRawPointer(engine)).release()
}

/// The decision of a `tl_engine_decide` call, made on the calling thread's page cache with the
/// URLs read in place; nil when an argument is NULL or unknown.
func decision(
    _ engine: OpaquePointer?, _ url: UnsafePointer<CChar>?, _ topURL: UnsafePointer<CChar>?, _ frameURL: UnsafePointer<CChar>?,
    _ type: Int32, _ method: UnsafePointer<CChar>?
) -> RuleEngine.Decision? {
    guard let engine, let url, let topURL, let (resourceType, parsedMethod) = load(type, method) else { return nil }
    // Both references lent for the call, so that a decision retains neither the thread's cache
    // nor the engine's tables.
    return ThreadPageCache.withCurrent { cache in
        Unmanaged<EngineHandle>.fromOpaque(UnsafeRawPointer(engine))._withUnsafeGuaranteedRef { handle in
            cache.decide(handle.engine, url: url, topURL: topURL, frameURL: frameURL, type: resourceType, method: parsedMethod)
        }
    }
}

/// The actions of a `tl_engine_actions_json` call, each with its list and rule, made on the
/// calling thread's page cache; nil when an argument is NULL or unknown.
func appliedActions(
    _ engine: OpaquePointer?, _ url: UnsafePointer<CChar>?, _ topURL: UnsafePointer<CChar>?, _ frameURL: UnsafePointer<CChar>?,
    _ type: Int32, _ method: UnsafePointer<CChar>?
) -> AppliedActions? {
    guard let engine, let url, let topURL, let (resourceType, parsedMethod) = load(type, method) else { return nil }
    return ThreadPageCache.withCurrent { cache in
        Unmanaged<EngineHandle>.fromOpaque(UnsafeRawPointer(engine))._withUnsafeGuaranteedRef { handle in
            cache.actions(handle.engine, url: url, topURL: topURL, frameURL: frameURL, type: resourceType, method: parsedMethod)
        }
    }
}

/// The resource type and method of a load given to the C API; nil when either is unknown.
private func load(_ type: Int32, _ method: UnsafePointer<CChar>?) -> (ResourceType, RequestMethod?)? {
    guard type >= 0, Int(type) < resourceTypes.count else { return nil }
    var parsedMethod: RequestMethod?
    if let method {
        guard let known = RequestMethod(name: String(cString: method)) else { return nil }
        parsedMethod = known
    }
    return (resourceTypes[Int(type)], parsedMethod)
}

@_cdecl("tl_engine_decide")
public func tl_engine_decide(
    _ engine: OpaquePointer?, _ url: UnsafePointer<CChar>?, _ topURL: UnsafePointer<CChar>?, _ frameURL: UnsafePointer<CChar>?,
    _ type: Int32, _ method: UnsafePointer<CChar>?, _ flags: UnsafeMutablePointer<UInt32>?
) -> Int32 {
    guard let flags, let decision = decision(engine, url, topURL, frameURL, type, method) else {
        return CStatus.invalidArgument("engine, url, top_url or flags is NULL, or type or method unknown", nil)
    }
    var bits: UInt32 = 0
    if decision.isChecked { bits |= 1 << 0 }
    if decision.isBlocked { bits |= 1 << 1 }
    if decision.blocksCookies { bits |= 1 << 2 }
    if decision.upgradesToHTTPS { bits |= 1 << 3 }
    if decision.hidesElements { bits |= 1 << 4 }
    flags.pointee = bits
    return CStatus.ok
}

@_cdecl("tl_engine_actions_json")
public func tl_engine_actions_json(
    _ engine: OpaquePointer?, _ url: UnsafePointer<CChar>?, _ topURL: UnsafePointer<CChar>?, _ frameURL: UnsafePointer<CChar>?,
    _ type: Int32, _ method: UnsafePointer<CChar>?, _ json: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
    guard let json, let actions = appliedActions(engine, url, topURL, frameURL, type, method) else {
        return CStatus.invalidArgument("engine, url, top_url or json is NULL, or type or method unknown", nil)
    }
    json.pointee = CStatus.duplicate(actions.jsonValue().jsonString())
    return CStatus.ok
}

@_cdecl("tl_engine_decide_rule")
public func tl_engine_decide_rule(
    _ engine: OpaquePointer?, _ url: UnsafePointer<CChar>?, _ topURL: UnsafePointer<CChar>?, _ frameURL: UnsafePointer<CChar>?,
    _ type: Int32, _ method: UnsafePointer<CChar>?, _ flags: UnsafeMutablePointer<UInt32>?,
    _ list: UnsafeMutablePointer<Int64>?, _ rule: UnsafeMutablePointer<Int64>?
) -> Int32 {
    guard let list, let rule else { return CStatus.invalidArgument("list or rule is NULL", nil) }
    let status = tl_engine_decide(engine, url, topURL, frameURL, type, method, flags)
    guard status == CStatus.ok, let flags, flags.pointee & (1 << 1) != 0,
          let actions = appliedActions(engine, url, topURL, frameURL, type, method)
    else {
        list.pointee = -1
        rule.pointee = -1
        return status
    }
    // The block's rule: the first list's, as tl_engine_actions_json names it.
    for (listIndex, listActions) in actions.lists.enumerated() {
        guard let index = zip(listActions.actions, listActions.ruleIndices).first(where: { $0.0 == .block })?.1 else { continue }
        list.pointee = Int64(listIndex)
        rule.pointee = Int64(index)
        return status
    }
    list.pointee = -1
    rule.pointee = -1
    return status
}
