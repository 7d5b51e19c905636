extension JSONValue {
    /// The value as compact, deterministic JSON bytes (see ``JSONWriter``).
    public func jsonBytes() -> [UInt8] {
        var writer = JSONWriter(capacity: 1 << 16)
        writer.write(self)
        return writer.bytes
    }

    /// The value as compact, deterministic JSON text (see ``JSONWriter``).
    public func jsonString() -> String {
        String(decoding: jsonBytes(), as: UTF8.self)
    }
}
