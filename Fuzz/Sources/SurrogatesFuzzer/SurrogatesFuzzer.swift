import FuzzSupport
import TrackerDataKit
import UserScripts

/// surrogates.txt as downloaded, read both as the resolver reads it (`Surrogates`) and as the
/// script renderer does (`SurrogateLibrary`, which drops surrogates unsafe to embed).
///
/// Invariants: reading never traps; every surrogate is found under its name; warnings name a line
/// of the file; the library keeps only surrogates of the file.
@_cdecl("LLVMFuzzerTestOneInput")
public func surrogatesFuzzer(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes = FuzzInput.bytes(start, count)
    let text = String(decoding: bytes, as: UTF8.self)
    let lineCount = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).count
    let surrogates = Surrogates(parsing: text, file: "surrogates.txt")
    for surrogate in surrogates.surrogates {
        require(surrogates[surrogate.name] == surrogate, "\(surrogate.name) is not found under its name")
    }
    for warning in surrogates.warnings {
        require((1...max(1, lineCount)).contains(warning.line ?? 0), "warning outside the file: \(warning)")
    }
    let library = SurrogateLibrary(index: bytes, file: "surrogates.txt")
    for surrogate in library.surrogates.surrogates {
        require(!surrogate.name.isEmpty, "a surrogate without a name")
    }
    _ = library.index
    return 0
}
