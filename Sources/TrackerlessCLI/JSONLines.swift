import TrackerlessCore

/// Reads JSON lines (one object per line; blank lines skipped) and writes one JSON line of
/// output per input line, so that output line N answers input line N.
///
/// A line that cannot be used gets `{"error": "line N: ..."}` in its place, and the command
/// exits with status 1 at the end.
struct JSONLines {
    /// The longest input line accepted, in bytes; a longer one is answered with an error and
    /// skipped, so memory stays bounded whatever comes in.
    static let maxLineBytes = 1 << 20

    /// The members the commands read from a line (`decide`, `resolve`, `https`, `navigate`); the
    /// others are skipped.
    static let keys: [StaticString] = ["url", "top", "type", "frame", "method", "site", "initiator", "referrer", "unblocked"]

    /// Runs `answer` on every object of standard input, writing each answer as soon as its line
    /// has arrived: a host can pipe requests in and read the decisions one by one.
    static func process(_ answer: (JSONStringMembers) throws(InputError) -> JSONValue) -> Int32 {
        var reader = LineReader(descriptor: 0, path: "<stdin>", maxLineBytes: maxLineBytes)
        var failed = false
        let isRead = forEachLine(of: &reader) { lineNumber, line in
            var writer = JSONWriter()
            do {
                let bytes = try line.get()
                if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return }
                writer.write(try answer(try members(of: bytes)))
            } catch {
                failed = true
                writer.write(.object(JSONObject([("error", .string("line \(lineNumber): \(error)"))])))
            }
            writer.writeRaw("\n")
            Output.write(writer.bytes)
        }
        return failed || !isRead ? 1 : 0
    }

    /// Calls `body` with each line of `reader` and its number from 1: its bytes, or for a line
    /// over ``LineReader/maxLineBytes`` an error saying so (`the line has N bytes; the limit is
    /// M`). A read that fails ends the lines with its error on standard error.
    ///
    /// - Returns: false when reading failed.
    static func forEachLine(
        of reader: inout LineReader, _ body: (Int, Result<[UInt8], InputError>) throws -> Void
    ) rethrows -> Bool {
        var lineNumber = 0
        while true {
            let next: LineReader.Line?
            do {
                next = try reader.next()
            } catch {
                Output.standardError("trackerless: \(error)")
                return false
            }
            guard let line = next else { return true }
            lineNumber += 1
            switch line {
            case .tooLong(let length):
                try body(lineNumber, .failure(InputError("the line has \(length) bytes; the limit is \(reader.maxLineBytes)")))
            case .text(let bytes):
                try body(lineNumber, .success(bytes))
            }
        }
    }

    /// The line's members named in ``keys``; an error when it is not JSON or not an object.
    static func members(of line: [UInt8]) throws(InputError) -> JSONStringMembers {
        let members: JSONStringMembers?
        do throws(JSONReadError) {
            members = try JSONReader.read(line) { (reader) throws(JSONReadError) -> JSONStringMembers? in
                guard try reader.nextKind() == .object else {
                    try reader.skipValue()
                    return nil
                }
                return try reader.readStringMembers(keys, at: .root)
            }
        } catch {
            switch error {
            case .syntax(let error): throw InputError("\(error)")
            case .invalidValue(let error): throw InputError("\(error)")
            case .rejected(let error): throw InputError("\(error)")
            }
        }
        guard let members else { throw InputError("expected a JSON object") }
        return members
    }
}

extension JSONStringMembers {
    /// A required string member, with an error naming it.
    func required(_ key: StaticString) throws(InputError) -> String {
        guard self[key] != nil else { throw InputError("missing \"\(key)\"") }
        do throws(JSONDecodingError) {
            return try requiredString(key)
        } catch {
            throw InputError("\(error)")
        }
    }

    /// The top page's URL, `"top"` in every command. A line that names it `"site"`, as `resolve`
    /// and `https` read it before, is refused saying so: a renamed key must not pass for a
    /// missing one.
    func topURL() throws(InputError) -> String {
        if self["site"] != nil { throw InputError(Self.siteIsTop) }
        return try required("top")
    }

    /// The top page's URL of a frame's navigation (`navigate`), nil for a main frame's. A line
    /// with `"frame"`, which named the top page here before and names the requesting frame in
    /// `decide`, is refused saying so.
    func optionalTopURL() throws(InputError) -> String? {
        if self["site"] != nil { throw InputError(Self.siteIsTop) }
        if self["frame"] != nil {
            throw InputError("\"frame\" is a requesting frame's URL, which navigate does not read; give the top page's URL as \"top\"")
        }
        return try optional("top")
    }

    private static let siteIsTop = "\"site\" is now \"top\": the top page's URL, as in the address bar"

    /// An optional string member; null counts as absent.
    func optional(_ key: StaticString) throws(InputError) -> String? {
        do throws(JSONDecodingError) {
            return try optionalString(key)
        } catch {
            throw InputError("\(error)")
        }
    }
}
