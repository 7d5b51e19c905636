/// The one way this package decodes JSON input: a cursor over the document's bytes that hands a
/// decoder keys and values in document order, straight into the decoder's own types, and builds
/// a ``JSONPath`` only when it reports an error.
///
/// Every input (tds.json, the privacy configuration, the allowlists, the Disconnect lists, the
/// script messages, ...) is decoded through it, so all of them report the same errors in the
/// same words. A decoder that walks a big document once (tds.json) spends a third of its time
/// building and freeing a tree; this reader never builds one except for a value the decoder asks
/// for as a tree (``readValue()``), or for a value of the wrong type, to name its type:
///
/// ```swift
/// let names = try JSONReader.read(bytes) { (reader) throws(JSONReadError) -> [String] in
///     var names: [String] = []
///     var members = try reader.enterObject(at: .root)
///     while let key = try reader.nextKey(in: &members) {
///         switch key {
///         case "name": names.append(try reader.readString(at: JSONPath.root.appending(key: "name")))
///         default: try reader.skipValue()
///         }
///     }
///     return names
/// }
/// ```
///
/// Paths are autoclosures (`at: path().appending(key: "rule")`): the happy path never builds
/// one. Errors are those of ``JSONParser`` followed by a decoder using ``JSONNode``: the same
/// syntax errors at the same offsets, the same "expected a string, found a number" with the
/// caller's path, and a syntax error anywhere in the document reported before any wrong value
/// or any error of the decoder's own (see ``read(_:maxDepth:_:)``).
///
/// Members come in document order. A decoder whose errors follow lookups (a required member
/// checked before the others, the last of duplicate keys winning) keeps what it read per key and
/// checks it in its own order at the end of the object; ``checkpoint`` and ``restore(_:)`` read a
/// value again. A value kept to be read later (a privacy-configuration
/// feature's `settings`) is kept as its text (``readText()``) and read with a reader of its own
/// when asked; where a caller needs the tree itself, it reads that value with ``readValue()``; a tree from elsewhere (a web view's message object) is
/// written with ``JSONWriter`` and read back, so it goes through the same decoder.
public struct JSONReader {
    /// Where the reader is: restoring one reads the same values again.
    public struct Checkpoint {
        fileprivate let position: Int
        fileprivate let depth: Int
    }

    /// An object being read: whether its first member is still to come.
    public struct Members {
        fileprivate var isEmpty: Bool
        fileprivate var isAtStart = true
    }

    /// An array being read: whether its first element is still to come.
    public struct Elements {
        fileprivate var isEmpty: Bool
        fileprivate var isAtStart = true
    }

    private var scanner: JSONScanner
    /// Containers entered and not yet left, for the nesting limit.
    private var depth = 0
    /// The text of the last key that had escapes, which its ``JSONKey`` points into; freed when
    /// the document has been read.
    private var escapedKey = UnsafeMutableBufferPointer<UInt8>(start: nil, count: 0)
    /// The pages read past, given back by ``releaseReadBytes()``; nil unless the document was
    /// given with ``read(releasingReadBytesOf:maxDepth:_:)``.
    private var pageRelease: ReadPageRelease?
    /// The position at which ``releaseReadBytes()`` next gives pages back.
    private var nextRelease = Int.max

    private init(_ scanner: JSONScanner) {
        self.scanner = scanner
    }

    /// Reads `bytes` (UTF-8, optional byte order mark) with `body`, which must read the document's
    /// one value; then checks that nothing but whitespace follows it.
    ///
    /// When `body` stops at a wrong value (or with an error of its own), the rest of the document
    /// is checked too, and its first syntax error is reported instead: a decoder of the parsed
    /// tree would have met that first.
    public static func read<Result>(
        _ bytes: [UInt8], maxDepth: Int = 512, _ body: (inout JSONReader) throws(JSONReadError) -> Result
    ) throws(JSONReadError) -> Result {
        do throws(JSONReadError) {
            return try bytes.withUnsafeBufferPointer { (buffer) throws(JSONReadError) -> Result in
                var reader = JSONReader(JSONScanner(buffer, maxDepth: maxDepth, indexingObjects: false))
                defer { reader.escapedKey.deallocate() }
                reader.scanner.skipByteOrderMark()
                let result = try body(&reader)
                try reader.syntax { (scanner) throws(JSONSyntaxError) in try scanner.expectEnd() }
                return result
            }
        } catch {
            if case .syntax = error { throw error }
            do throws(JSONSyntaxError) {
                try bytes.withUnsafeBufferPointer { (buffer) throws(JSONSyntaxError) in
                    var scanner = JSONScanner(buffer, maxDepth: maxDepth, indexingObjects: false)
                    scanner.skipByteOrderMark()
                    try scanner.skipValue()
                    try scanner.expectEnd()
                }
            } catch {
                throw .syntax(error)
            }
            throw error
        }
    }

    /// Reads `bytes` as ``read(_:maxDepth:_:)`` does, and lets `body` give the pages it has read
    /// past back to the system (``releaseReadBytes()``): for a document of hundreds of megabytes,
    /// so that its bytes and what is made of them are not held in full at once.
    ///
    /// The bytes are the reader's alone (a copy is made if the caller still holds them).
    /// Errors are not always those of ``read(_:maxDepth:_:)``: a syntax error after a wrong value
    /// is not looked for (the bytes before it may be gone), and a wrong value restored from a
    /// checkpoint before a release would read zeros. On any error, read the document again with
    /// ``read(_:maxDepth:_:)`` for the error to report.
    public static func read<Result>(
        releasingReadBytesOf bytes: consuming [UInt8], maxDepth: Int = 512,
        _ body: (inout JSONReader) throws(JSONReadError) -> Result
    ) throws(JSONReadError) -> Result {
        var bytes = bytes
        return try bytes.withUnsafeMutableBufferPointer { (buffer) throws(JSONReadError) -> Result in
            var reader = JSONReader(JSONScanner(UnsafeBufferPointer(buffer), maxDepth: maxDepth, indexingObjects: false))
            defer { reader.escapedKey.deallocate() }
            let release = ReadPageRelease(buffer)
            reader.nextRelease = release.nextRelease
            reader.pageRelease = release
            reader.scanner.skipByteOrderMark()
            let result = try body(&reader)
            try reader.syntax { (scanner) throws(JSONSyntaxError) in try scanner.expectEnd() }
            return result
        }
    }

    /// Gives the pages read so far back to the system, every few megabytes, when the document
    /// was given with ``read(releasingReadBytesOf:maxDepth:_:)``; otherwise does nothing. Call it
    /// only where no checkpoint before the current position will be restored and no key read
    /// before it is still used (between two members of an object, before the next key).
    public mutating func releaseReadBytes() {
        guard scanner.position >= nextRelease else { return }
        pageRelease?.release(before: scanner.position)
        nextRelease = pageRelease?.nextRelease ?? .max
    }

    // MARK: Objects and arrays

    /// Enters the object that comes next, or throws the error of ``JSONNode/members()`` for
    /// another value at `path`.
    public mutating func enterObject(at path: @autoclosure () -> JSONPath) throws(JSONReadError) -> Members {
        guard try nextByte() == UInt8(ascii: "{") else {
            try failWithNode(at: path()) { (node) throws(JSONDecodingError) in _ = try node.members() }
        }
        return Members(isEmpty: !(try enterContainer(closedBy: UInt8(ascii: "}"))))
    }

    /// Enters the object that comes next, or returns nil after skipping another value: for a
    /// decoder to which a value of another type means "absent" rather than an error.
    public mutating func enterObjectIfPresent() throws(JSONReadError) -> Members? {
        guard try nextByte() == UInt8(ascii: "{") else {
            try skipValue()
            return nil
        }
        return Members(isEmpty: !(try enterContainer(closedBy: UInt8(ascii: "}"))))
    }

    /// How many members whose value is an object the object being read has still to come,
    /// counted by skipping them and going back: for a decoder that sizes its storage once before
    /// reading them (other values, which it refuses, are not counted, so that a document of
    /// them does not have room made for it). Nil where the object has a syntax error (reading
    /// it then meets that error) or reaches the nesting limit.
    public mutating func countObjectMembers(from members: Members) -> Int? {
        let start = checkpoint
        defer { restore(start) }
        var members = members
        var count = 0
        do throws(JSONReadError) {
            while try nextKey(in: &members) != nil {
                if try nextByte() == UInt8(ascii: "{") { count += 1 }
                try skipValue()
            }
        } catch {
            return nil
        }
        return count
    }

    /// The key of the object's next member, after which the caller reads or skips its value; nil
    /// after the last member, with the object left.
    ///
    /// The key is valid until the reader's next call.
    public mutating func nextKey(in members: inout Members) throws(JSONReadError) -> JSONKey? {
        if members.isAtStart {
            members.isAtStart = false
            if members.isEmpty {
                depth -= 1
                return nil
            }
        } else {
            guard try skipSeparator(inObject: true) else { return nil }
            scanner.skipWhitespace()
        }
        return try readKey()
    }

    /// Enters the array that comes next, or throws the error of `mismatch` (a ``JSONNode``
    /// accessor, ``JSONNode/array()`` unless the caller wants an array of something) for another
    /// value at `path`.
    public mutating func enterArray(
        at path: @autoclosure () -> JSONPath,
        mismatch: (JSONNode) throws(JSONDecodingError) -> Void = { (node) throws(JSONDecodingError) in _ = try node.array() }
    ) throws(JSONReadError) -> Elements {
        guard try nextByte() == UInt8(ascii: "[") else {
            try failWithNode(at: path(), mismatch)
        }
        return Elements(isEmpty: !(try enterContainer(closedBy: UInt8(ascii: "]"))))
    }

    /// Enters the array that comes next, or returns nil after skipping another value.
    public mutating func enterArrayIfPresent() throws(JSONReadError) -> Elements? {
        guard try nextByte() == UInt8(ascii: "[") else {
            try skipValue()
            return nil
        }
        return Elements(isEmpty: !(try enterContainer(closedBy: UInt8(ascii: "]"))))
    }

    /// Whether the array has another element, which the caller then reads; false after the last,
    /// with the array left.
    public mutating func nextElement(in elements: inout Elements) throws(JSONReadError) -> Bool {
        if elements.isAtStart {
            elements.isAtStart = false
            if elements.isEmpty { depth -= 1 }
            return !elements.isEmpty
        }
        return try skipSeparator(inObject: false)
    }

    // MARK: Values

    /// Whether the next value is `null`, which is then skipped.
    public mutating func skipNull() throws(JSONReadError) -> Bool {
        guard try nextByte() == UInt8(ascii: "n") else { return false }
        try syntax { (scanner) throws(JSONSyntaxError) in try scanner.expectLiteral("null") }
        return true
    }

    /// The string that comes next, or the error of ``JSONNode/string()`` for another value at `path`.
    public mutating func readString(at path: @autoclosure () -> JSONPath) throws(JSONReadError) -> String {
        guard try nextByte() == UInt8(ascii: "\"") else {
            try failWithNode(at: path()) { (node) throws(JSONDecodingError) in _ = try node.string() }
        }
        return try syntax { (scanner) throws(JSONSyntaxError) in try scanner.parseString() }
    }

    /// The string that comes next, or nil after skipping another value.
    public mutating func readStringIfPresent() throws(JSONReadError) -> String? {
        guard try nextByte() == UInt8(ascii: "\"") else {
            try skipValue()
            return nil
        }
        return try syntax { (scanner) throws(JSONSyntaxError) in try scanner.parseString() }
    }

    /// The Boolean that comes next, or nil after skipping another value.
    public mutating func readBoolIfPresent() throws(JSONReadError) -> Bool? {
        guard try nextKind() == .bool else {
            try skipValue()
            return nil
        }
        return try readBool(at: .root)
    }

    /// The Boolean that comes next, or the error of ``JSONNode/bool()`` for another value at `path`.
    public mutating func readBool(at path: @autoclosure () -> JSONPath) throws(JSONReadError) -> Bool {
        switch try nextByte() {
        case UInt8(ascii: "t"):
            try syntax { (scanner) throws(JSONSyntaxError) in try scanner.expectLiteral("true") }
            return true
        case UInt8(ascii: "f"):
            try syntax { (scanner) throws(JSONSyntaxError) in try scanner.expectLiteral("false") }
            return false
        default:
            try failWithNode(at: path()) { (node) throws(JSONDecodingError) in _ = try node.bool() }
        }
    }

    /// What the next value is, told from its first byte; a byte that starts no value is
    /// ``JSONValueKind/invalid``, for the next read to report.
    public mutating func nextKind() throws(JSONReadError) -> JSONValueKind {
        switch try nextByte() {
        case UInt8(ascii: "{"): .object
        case UInt8(ascii: "["): .array
        case UInt8(ascii: "\""): .string
        case UInt8(ascii: "t"), UInt8(ascii: "f"): .bool
        case UInt8(ascii: "n"): .null
        case let byte where Self.startsNumber(byte): .number
        default: .invalid
        }
    }

    /// The number that comes next, or the error of ``JSONNode/double()`` for another value at `path`.
    public mutating func readDouble(at path: @autoclosure () -> JSONPath) throws(JSONReadError) -> Double {
        guard Self.startsNumber(try nextByte()) else {
            try failWithNode(at: path()) { (node) throws(JSONDecodingError) in _ = try node.double() }
        }
        return try syntax { (scanner) throws(JSONSyntaxError) in try scanner.parseNumber() }
    }

    /// The number that comes next, or nil after skipping another value.
    public mutating func readDoubleIfPresent() throws(JSONReadError) -> Double? {
        guard Self.startsNumber(try nextByte()) else {
            try skipValue()
            return nil
        }
        return try syntax { (scanner) throws(JSONSyntaxError) in try scanner.parseNumber() }
    }

    /// The integer that comes next, or the error of ``JSONNode/int()`` for another value at `path`.
    public mutating func readInt(at path: @autoclosure () -> JSONPath) throws(JSONReadError) -> Int {
        guard Self.startsNumber(try nextByte()) else {
            try failWithNode(at: path()) { (node) throws(JSONDecodingError) in _ = try node.int() }
        }
        let number = try syntax { (scanner) throws(JSONSyntaxError) in try scanner.parseNumber() }
        if let integer = Int(exactly: number) { return integer }
        do throws(JSONDecodingError) {
            return try JSONNode(.number(number), path: path()).int()
        } catch {
            throw .invalidValue(error)
        }
    }

    /// The array of strings that comes next, or the error of ``JSONNode/stringArray()`` for
    /// another value at `path` or an element that is not a string.
    public mutating func readStringArray(at path: @autoclosure () -> JSONPath) throws(JSONReadError) -> [String] {
        var elements = try enterArray(at: path()) { (node) throws(JSONDecodingError) in _ = try node.stringArray() }
        var strings: [String] = []
        while try nextElement(in: &elements) {
            let index = strings.count
            strings.append(try readString(at: path().appending(index: index)))
        }
        return strings
    }

    /// The value that comes next, as a tree.
    public mutating func readValue() throws(JSONReadError) -> JSONValue {
        let depth = depth
        return try syntax { (scanner) throws(JSONSyntaxError) in try scanner.parseValue(depth: depth) }
    }

    /// Skips the value that comes next, checking its syntax without building it.
    public mutating func skipValue() throws(JSONReadError) {
        let depth = depth
        try syntax { (scanner) throws(JSONSyntaxError) in try scanner.skipValue(depth: depth) }
    }

    /// The value that comes next as the bytes of its text (checked for syntax, not built), for a
    /// decoder that keeps a value to read later with its own reader (a feature's `settings`).
    public mutating func readText() throws(JSONReadError) -> JSONText {
        _ = try nextByte()
        let start = scanner.position
        try skipValue()
        return JSONText(validBytes: Array(scanner.bytes[start..<scanner.position]))
    }

    /// Reads the value that comes next with `read`; a failure other than a syntax error is
    /// returned instead of thrown, with the value skipped, for a decoder that drops a wrong value
    /// with a warning or reports problems in its own order (the last of duplicate keys wins).
    public mutating func readResult<Value>(
        _ read: (inout JSONReader) throws(JSONReadError) -> Value
    ) throws(JSONReadError) -> Result<Value, JSONReadError> {
        let start = checkpoint
        do throws(JSONReadError) {
            return .success(try read(&self))
        } catch {
            if case .syntax = error { throw error }
            restore(start)
            try skipValue()
            return .failure(error)
        }
    }

    // MARK: Checkpoints

    /// Where the reader is now.
    public var checkpoint: Checkpoint {
        Checkpoint(position: scanner.position, depth: depth)
    }

    /// Goes back to `checkpoint`, to read what follows it again.
    public mutating func restore(_ checkpoint: Checkpoint) {
        scanner.position = checkpoint.position
        depth = checkpoint.depth
    }

    // MARK: Scanning

    /// Runs a step of the scanner, passing its syntax error on.
    private mutating func syntax<Result>(
        _ step: (inout JSONScanner) throws(JSONSyntaxError) -> Result
    ) throws(JSONReadError) -> Result {
        do throws(JSONSyntaxError) {
            return try step(&scanner)
        } catch {
            throw .syntax(error)
        }
    }

    private mutating func nextByte() throws(JSONReadError) -> UInt8 {
        try syntax { (scanner) throws(JSONSyntaxError) in try scanner.valueStart() }
    }

    private mutating func enterContainer(closedBy closing: UInt8) throws(JSONReadError) -> Bool {
        let depth = depth
        let isOpen = try syntax { (scanner) throws(JSONSyntaxError) in try scanner.enterContainer(closedBy: closing, depth: depth) }
        // An empty container is left when its first member or element is asked for.
        self.depth += 1
        return isOpen
    }

    private mutating func skipSeparator(inObject: Bool) throws(JSONReadError) -> Bool {
        let another = try syntax { (scanner) throws(JSONSyntaxError) in try scanner.skipSeparator(inObject: inObject) }
        if !another { depth -= 1 }
        return another
    }

    /// Reads `"key" :` without making a String of the key.
    private mutating func readKey() throws(JSONReadError) -> JSONKey {
        let key = try syntax { (scanner) throws(JSONSyntaxError) -> JSONKey? in
            try scanner.expectKeyQuote()
            let start = scanner.position + 1
            var plainEnd = start
            guard let end = scanner.plainStringEnd(from: start, stoppingAt: &plainEnd) else { return nil }
            scanner.position = end + 1
            try scanner.expectColon()
            return JSONKey(UnsafeBufferPointer(rebasing: scanner.bytes[start..<end]))
        }
        if let key { return key }
        return try readEscapedKey()
    }

    /// Reads a key with escapes or non-ASCII text, keeping its text in `escapedKey`.
    private mutating func readEscapedKey() throws(JSONReadError) -> JSONKey {
        var text = try syntax { (scanner) throws(JSONSyntaxError) -> String in
            let key = try scanner.parseString()
            try scanner.expectColon()
            return key
        }
        let count = text.utf8.count
        if escapedKey.count < count {
            escapedKey.deallocate()
            escapedKey = .allocate(capacity: max(count, 64))
        }
        text.withUTF8 { utf8 in
            _ = escapedKey.initialize(fromContentsOf: utf8)
        }
        return JSONKey(UnsafeBufferPointer(rebasing: escapedKey[..<count]))
    }

    /// Reads the next value as a tree and throws what `accessor` says about it at `path`.
    private mutating func failWithNode(
        at path: JSONPath, _ accessor: (JSONNode) throws(JSONDecodingError) -> Void
    ) throws(JSONReadError) -> Never {
        let value = try readValue()
        do throws(JSONDecodingError) {
            try accessor(JSONNode(value, path: path))
        } catch {
            throw .invalidValue(error)
        }
        preconditionFailure("\(path): the accessor accepted a value the reader did not expect")
    }

    private static func startsNumber(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "-") || (byte &- UInt8(ascii: "0")) < 10
    }
}
