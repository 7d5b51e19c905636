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

    /// Runs `answer` on every object of standard input, writing each answer as soon as its line
    /// has arrived: a host can pipe requests in and read the decisions one by one.
    static func process(_ answer: (JSONNode) throws(InputError) -> JSONValue) -> Int32 {
        var reader = LineReader(descriptor: 0, path: "<stdin>", maxLineBytes: maxLineBytes)
        var failed = false
        var lineNumber = 0
        while true {
            let next: LineReader.Line?
            do {
                next = try reader.next()
            } catch {
                Output.standardError("trackerless: \(error)")
                return 1
            }
            guard let line = next else { break }
            lineNumber += 1
            var writer = JSONWriter()
            do {
                switch line {
                case .tooLong(let length):
                    throw InputError("the line has \(length) bytes; the limit is \(maxLineBytes)")
                case .text(let bytes):
                    if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { continue }
                    let value: JSONValue
                    do throws(JSONSyntaxError) {
                        value = try JSONParser.parse(bytes)
                    } catch {
                        throw InputError("\(error)")
                    }
                    guard case .object = value else { throw InputError("expected a JSON object") }
                    writer.write(try answer(JSONNode(value)))
                }
            } catch {
                failed = true
                writer.write(.object(JSONObject([("error", .string("line \(lineNumber): \(error)"))])))
            }
            writer.writeRaw("\n")
            Output.write(writer.bytes)
        }
        return failed ? 1 : 0
    }
}

extension JSONNode {
    /// A required string member, with an error naming it.
    func requiredString(_ key: String) throws(InputError) -> String {
        guard let member = self[key] else { throw InputError("missing \"\(key)\"") }
        do throws(JSONDecodingError) {
            return try member.string()
        } catch {
            throw InputError("\(error)")
        }
    }

    /// An optional string member; null counts as absent.
    func optionalString(_ key: String) throws(InputError) -> String? {
        guard let member = self[key], !member.isNull else { return nil }
        do throws(JSONDecodingError) {
            return try member.string()
        } catch {
            throw InputError("\(error)")
        }
    }
}
