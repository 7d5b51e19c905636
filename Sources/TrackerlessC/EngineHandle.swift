import RuleEngineKit

/// What a `tl_engine *` points to.
final class EngineHandle {
    let engine: RuleEngine
    init(_ engine: RuleEngine) { self.engine = engine }

    static func retained(_ engine: RuleEngine) -> OpaquePointer {
        OpaquePointer(Unmanaged.passRetained(EngineHandle(engine)).toOpaque())
    }

    static func borrow(_ pointer: OpaquePointer) -> RuleEngine {
        Unmanaged<EngineHandle>.fromOpaque(UnsafeRawPointer(pointer)).takeUnretainedValue().engine
    }
}
