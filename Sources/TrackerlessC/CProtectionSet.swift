import TrackerlessCore
import TrackerlessRuntime

// One protection set through the C API (include/trackerless.h): its identity, its rule lists
// with their identifiers, its scripts, its engine and its resolver, all of one generation.
// `tl_protection_set *` points to the `ProtectionSet` itself.

/// A `tl_protection_set *` that holds `set`.
func retainedSet(_ set: ProtectionSet) -> OpaquePointer {
    OpaquePointer(Unmanaged.passRetained(set).toOpaque())
}

/// The set behind a `tl_protection_set *`.
func borrowSet(_ pointer: OpaquePointer) -> ProtectionSet {
    Unmanaged<ProtectionSet>.fromOpaque(UnsafeRawPointer(pointer)).takeUnretainedValue()
}

@_cdecl("tl_protection_set_build")
public func tl_protection_set_build(
    _ inputs: OpaquePointer?, _ set: UnsafeMutablePointer<OpaquePointer?>?, _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
    guard let set else { return CStatus.invalidArgument("set is NULL", error) }
    guard let documents = InputsHandle.inputs(inputs) else { return CStatus.invalidArgument(InputsHandle.missingMessage, error) }
    do throws(ProtectionError) {
        set.pointee = retainedSet(try ProtectionSet.build(documents))
        return CStatus.ok
    } catch let failure {
        return CStatus.failure(failure, error)
    }
}

@_cdecl("tl_protection_set_info_json")
public func tl_protection_set_info_json(_ set: OpaquePointer?, _ json: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    guard let set, let json else { return CStatus.invalidArgument("set or json is NULL", nil) }
    let protection = borrowSet(set)
    let object = JSONValue.object(JSONObject([
        ("identity", .string(protection.identity)), ("origin", .string(protection.origin.rawValue)),
        ("ruleLists", .array(protection.ruleLists.map { .object(listFields($0)) })),
        ("notes", .array(protection.notes.map(JSONValue.string))),
    ]))
    json.pointee = CStatus.duplicate(object.jsonString())
    return CStatus.ok
}

/// A rule list's identifier, kind, Click-to-Load action and rule count.
func listFields(_ list: EncodedRuleList) -> JSONObject {
    JSONObject([
        ("identifier", .string(list.identifier)), ("kind", .string(list.kind.rawValue)),
        ("clickToLoadAction", list.clickToLoadAction.map(JSONValue.string) ?? .null),
        ("ruleCount", .number(Double(list.ruleCount))),
    ])
}

@_cdecl("tl_protection_set_rule_lists_json")
public func tl_protection_set_rule_lists_json(
    _ set: OpaquePointer?, _ json: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
    guard let set, let json else { return CStatus.invalidArgument("set or json is NULL", nil) }
    // Each list's JSON goes in as it is (megabytes for a full blocklist), after its fields.
    var bytes: [UInt8] = [UInt8(ascii: "[")]
    for (index, list) in borrowSet(set).ruleLists.enumerated() {
        if index > 0 { bytes.append(UInt8(ascii: ",")) }
        var fields = JSONValue.object(listFields(list)).jsonBytes()
        fields.removeLast()  // the closing brace
        bytes += fields
        bytes += Array(",\"rules\":".utf8)
        bytes += list.json
        bytes.append(UInt8(ascii: "}"))
    }
    bytes.append(UInt8(ascii: "]"))
    json.pointee = CStatus.duplicate(bytes: bytes)
    return CStatus.ok
}

@_cdecl("tl_protection_set_scripts_json")
public func tl_protection_set_scripts_json(_ set: OpaquePointer?, _ json: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    guard let set, let json else { return CStatus.invalidArgument("set or json is NULL", nil) }
    let protection = borrowSet(set)
    let object = JSONValue.object(JSONObject([
        ("blocking", .string(protection.blockingScript?.source ?? "")),
        ("inference", .string(protection.inferenceScript?.source ?? "")),
        ("isolatedWorld", .string(ProtectionSet.isolatedWorld.name ?? "")),
        ("secret", .string(protection.secret.value)), ("handler", .string(protection.messageHandlerName)),
    ]))
    json.pointee = CStatus.duplicate(object.jsonString())
    return CStatus.ok
}

@_cdecl("tl_protection_set_engine")
public func tl_protection_set_engine(_ set: OpaquePointer?, _ engine: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    guard let set, let engine else { return CStatus.invalidArgument("set or engine is NULL", nil) }
    engine.pointee = EngineHandle.retained(borrowSet(set).engine)
    return CStatus.ok
}

@_cdecl("tl_protection_set_rule_source")
public func tl_protection_set_rule_source(
    _ set: OpaquePointer?, _ list: Int64, _ rule: Int64, _ json: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
    guard let set, let json else { return CStatus.invalidArgument("set or json is NULL", nil) }
    json.pointee = nil
    guard let list = Int(exactly: list), let rule = Int(exactly: rule),
          let source = borrowSet(set).ruleSource(list: list, rule: rule)
    else { return CStatus.ok }
    json.pointee = CStatus.duplicate(source.jsonString())
    return CStatus.ok
}

@_cdecl("tl_protection_set_resolver")
public func tl_protection_set_resolver(_ set: OpaquePointer?, _ resolver: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    guard let set, let resolver else { return CStatus.invalidArgument("set or resolver is NULL", nil) }
    resolver.pointee = OpaquePointer(Unmanaged.passRetained(ResolverHandle(borrowSet(set).resolver)).toOpaque())
    return CStatus.ok
}

@_cdecl("tl_protection_set_free")
public func tl_protection_set_free(_ set: OpaquePointer?) {
    guard let set else { return }
    Unmanaged<ProtectionSet>.fromOpaque(UnsafeRawPointer(set)).release()
}
