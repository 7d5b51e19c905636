#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TrackerlessRuntime
import UserScripts

/// `tl_status` and the error message that goes with it.
enum CStatus {
    static let ok: Int32 = 0
    static let invalidArgumentCode: Int32 = 1
    static let invalidInputCode: Int32 = 2
    static let ioCode: Int32 = 3

    /// TL_ERROR_INVALID_ARGUMENT, with `message` in `*error` when `error` is not NULL.
    static func invalidArgument(_ message: String, _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
        error?.pointee = duplicate(message)
        return invalidArgumentCode
    }

    /// TL_ERROR_INVALID_INPUT, with `message` in `*error` when `error` is not NULL.
    static func invalidInput(_ message: String, error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
        error?.pointee = duplicate(message)
        return invalidInputCode
    }

    /// TL_ERROR_INVALID_ARGUMENT for a bridge name that is not one of ``MessageBridge``'s.
    static func unknownBridge(_ name: String, _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
        let names = MessageBridge.allCases.map(\.rawValue).joined(separator: ", ")
        return invalidArgument("unknown bridge \"\(name.prefix(100))\" (one of \(names))", error)
    }

    /// The status of a protection set's failure: TL_ERROR_IO when a file could not be written,
    /// TL_ERROR_INVALID_INPUT otherwise, with the message that names the input and the place.
    static func failure(_ failure: ProtectionError, _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
        error?.pointee = duplicate(failure.description)
        if case .unwritable = failure { return ioCode }
        return invalidInputCode
    }

    /// A NUL-terminated copy the caller frees with `tl_string_free` (a NUL inside `text` ends the
    /// C string there).
    static func duplicate(_ text: String) -> UnsafeMutablePointer<CChar>? {
        text.withCString { strdup($0) }
    }

    /// `bytes` and a NUL, in memory the caller frees with `tl_string_free`.
    static func duplicate(bytes: [UInt8]) -> UnsafeMutablePointer<CChar>? {
        guard let copy = malloc(bytes.count + 1)?.assumingMemoryBound(to: CChar.self) else { return nil }
        bytes.withUnsafeBytes { raw in
            if let base = raw.baseAddress { UnsafeMutableRawPointer(copy).copyMemory(from: base, byteCount: bytes.count) }
        }
        copy[bytes.count] = 0
        return copy
    }
}

@_cdecl("tl_api_version")
public func tl_api_version() -> Int32 { 3 }

@_cdecl("tl_string_free")
public func tl_string_free(_ string: UnsafeMutablePointer<CChar>?) { free(string) }

@_cdecl("tl_bytes_free")
public func tl_bytes_free(_ bytes: UnsafeMutablePointer<UInt8>?) { free(bytes) }
