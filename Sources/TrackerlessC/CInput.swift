/// Byte inputs of the C API.
enum CInput {
    /// The bytes of an optional input; nil for a NULL pointer or a length out of range, an empty
    /// array for length 0.
    static func bytes(_ pointer: UnsafePointer<CChar>?, _ length: UInt) -> [UInt8]? {
        guard let pointer, let count = Int(exactly: length) else { return nil }
        return Array(UnsafeBufferPointer(start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self), count: count))
    }
}
