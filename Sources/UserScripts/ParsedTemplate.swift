/// A template split into its text and its placeholders, checked once so that rendering is only
/// copying.
struct ParsedTemplate: Sendable {
    enum Piece: Sendable {
        /// Bytes of the template, copied as they are.
        case text(Range<Int>)
        case placeholder(Placeholder)
    }

    /// The template's UTF-8 bytes.
    let bytes: [UInt8]
    let pieces: [Piece]

    /// Splits `source` (the file `file`, for messages) at its placeholders.
    ///
    /// - Throws: ``ScriptRenderError/unknownPlaceholder(name:template:line:)`` for a `$NAME$`
    ///   that `kind` does not take, ``ScriptRenderError/missingPlaceholder(name:template:)`` for
    ///   one it needs and lacks, ``ScriptRenderError/unsafeCode(file:line:reason:)`` for template
    ///   text that would break out of a script element.
    init(_ source: String, kind: TemplateKind, file: String) throws(ScriptRenderError) {
        bytes = Array(source.utf8)
        if let problem = UnsafeCode.firstProblem(in: bytes) {
            throw .unsafeCode(file: file, line: problem.line, reason: problem.reason)
        }
        var pieces: [Piece] = []
        var seen: Set<Placeholder> = []
        var line = 1
        var textStart = 0
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\n") {
                line += 1
            } else if byte == UInt8(ascii: "$") {
                var end = index + 1
                while end < bytes.count, bytes[end].isPlaceholderNameCharacter { end += 1 }
                if end > index + 1, end < bytes.count, bytes[end] == UInt8(ascii: "$") {
                    let name = String(decoding: bytes[index + 1..<end], as: UTF8.self)
                    guard let placeholder = Placeholder(rawValue: name), kind.placeholders.contains(placeholder) else {
                        throw .unknownPlaceholder(name: name, template: file, line: line)
                    }
                    if textStart < index { pieces.append(.text(textStart..<index)) }
                    pieces.append(.placeholder(placeholder))
                    seen.insert(placeholder)
                    index = end + 1
                    textStart = index
                    continue
                }
            }
            index += 1
        }
        if textStart < bytes.count { pieces.append(.text(textStart..<bytes.count)) }
        if let missing = kind.placeholders.first(where: { !seen.contains($0) }) {
            throw .missingPlaceholder(name: missing.rawValue, template: file)
        }
        self.pieces = pieces
    }
}

extension UInt8 {
    /// `[A-Z_]`.
    fileprivate var isPlaceholderNameCharacter: Bool {
        (self >= UInt8(ascii: "A") && self <= UInt8(ascii: "Z")) || self == UInt8(ascii: "_")
    }
}
