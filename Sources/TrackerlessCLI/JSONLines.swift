import TrackerlessCore

/// Reads JSON lines (one object per line; blank lines skipped) and writes one JSON line of
/// output per input line, so that output line N answers input line N.
///
/// A line that cannot be used gets `{"error": "line N: ..."}` in its place, and the command
/// exits with status 1 at the end.
struct JSONLines {
    /// Runs `answer` on every object of standard input.
    static func process(_ answer: (JSONNode) throws(InputError) -> JSONValue) -> Int32 {
        let input = FileIO.readStandardInput()
        var writer = JSONWriter()
        var failed = false
        var lineNumber = 0
        for line in input.split(separator: 0x0A, omittingEmptySubsequences: false) {
            lineNumber += 1
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { continue }
            do {
                let value: JSONValue
                do throws(JSONSyntaxError) {
                    value = try JSONParser.parse(Array(line))
                } catch {
                    throw InputError("\(error)")
                }
                guard case .object = value else { throw InputError("expected a JSON object") }
                writer.write(try answer(JSONNode(value)))
            } catch {
                failed = true
                writer.write(.object(JSONObject([("error", .string("line \(lineNumber): \(error)"))])))
            }
            writer.writeRaw("\n")
        }
        Output.write(writer.bytes)
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
