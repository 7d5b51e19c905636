#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `tl_status` and the error message that goes with it.
enum CStatus {
    static let ok: Int32 = 0
    static let invalidArgumentCode: Int32 = 1
    static let invalidInputCode: Int32 = 2

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

    /// A NUL-terminated copy the caller frees with `tl_string_free` (a NUL inside `text` ends the
    /// C string there).
    static func duplicate(_ text: String) -> UnsafeMutablePointer<CChar>? {
        text.withCString { strdup($0) }
    }
}

@_cdecl("tl_api_version")
public func tl_api_version() -> Int32 { 1 }

@_cdecl("tl_string_free")
public func tl_string_free(_ string: UnsafeMutablePointer<CChar>?) { free(string) }

@_cdecl("tl_bytes_free")
public func tl_bytes_free(_ bytes: UnsafeMutablePointer<UInt8>?) { free(bytes) }
