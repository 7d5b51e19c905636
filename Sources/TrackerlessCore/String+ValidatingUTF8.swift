extension String {
    /// `bytes` as a string when they are well-formed UTF-8, nil otherwise: what
    /// `String(validating: bytes, as: UTF8.self)` does, which needs macOS 15 / iOS 18 while the
    /// package supports macOS 12 / iOS 15 (Scripts/check-apple-availability.sh). The standard
    /// library's UTF-8 parser decides, with the same rules (no overlong forms, surrogates or
    /// scalars above U+10FFFF, no truncated sequences).
    package init?(validatingUTF8Bytes bytes: some Collection<UInt8>) {
        var iterator = bytes.makeIterator()
        var parser = Unicode.UTF8.ForwardParser()
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid: continue
            case .emptyInput:
                self = String(decoding: bytes, as: UTF8.self)
                return
            case .error: return nil
            }
        }
    }
}
