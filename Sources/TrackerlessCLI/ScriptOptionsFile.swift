import TrackerlessCore
import UserScripts

/// `trackerless scripts --options FILE`: rendering options kept in a JSON file, the
/// `trackerless.json` of a target that uses the build plugin, for example
/// `{"bridge": "android", "handler": "trackerless", "blockInScript": true, "webkit": "safari-16"}`.
///
/// The file is read when the command runs, not by the plugin: SwiftPM keeps a plugin's commands
/// until the target's files change, not their contents, so only the command sees an edit.
enum ScriptOptionsFile {
    /// The keys, each with the command-line option it stands for and what its value must be.
    private static let keys: [(key: String, option: String, kind: Kind)] = [
        ("bridge", "bridge", .string),
        ("handler", "handler", .string),
        ("batchInterval", "batch-interval", .integer),
        ("blockInScript", "block-in-script", .flag),
        ("blockKeepalive", "block-keepalive", .flag),
        ("debug", "debug", .flag),
        ("webkit", "webkit", .string),
        ("siteConditions", "site-conditions", .string),
        ("exactPathMatches", "exact-path-matches", .flag),
        ("maxRules", "max-rules", .integer),
        ("maxBytes", "max-bytes", .integer),
    ]

    private enum Kind {
        case string, integer, flag
    }

    /// `arguments` with each `--options FILE` (or `--options=FILE`) replaced by the options the
    /// file holds, in place, so that an option given after it on the command line wins.
    ///
    /// - Throws: ``InputError`` naming the file, and the key when one is unknown or of the
    ///   wrong type; ``UsageError`` when `--options` has no value.
    static func expand(_ arguments: [String]) throws -> [String] {
        var expanded: [String] = []
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            let path: String
            if argument == "--options" {
                guard let value = iterator.next() else { throw UsageError("option --options needs a value") }
                path = value
            } else if argument.hasPrefix("--options=") {
                path = String(argument.dropFirst("--options=".count))
            } else {
                expanded.append(argument)
                continue
            }
            expanded += try options(inFile: path)
        }
        return expanded
    }

    /// The command-line options the file at `path` holds.
    static func options(inFile path: String) throws -> [String] {
        let bytes: [UInt8]
        do {
            bytes = try FileIO.read(path: path)
        } catch {
            throw InputError("\(path): \(error)")
        }
        do throws(JSONReadError) {
            return try JSONReader.read(bytes) { (reader) throws(JSONReadError) -> [String] in
                try arguments(&reader, path: path)
            }
        } catch {
            if case .rejected(let error) = error { throw error }
            throw InputError("\(path): \(error)")
        }
    }

    /// The options of the file's object, member by member in document order.
    private static func arguments(_ reader: inout JSONReader, path: String) throws(JSONReadError) -> [String] {
        func invalid(_ reason: String) -> JSONReadError {
            .rejected(InputError("\(path): \(reason)"))
        }
        guard try reader.nextKind() == .object else {
            try reader.skipValue()
            throw invalid("must be a JSON object of options (\(keys.map(\.key).joined(separator: ", ")))")
        }
        var arguments: [String] = []
        var members = try reader.enterObject(at: .root)
        while let name = try reader.nextKey(in: &members) {
            let key = name.string
            guard let entry = keys.first(where: { $0.key == key }) else {
                throw invalid("unknown option \"\(key.excerpt())\"; the options are \(keys.map(\.key).joined(separator: ", "))")
            }
            let kind = try reader.nextKind()
            switch (entry.kind, kind) {
            case (.string, .string):
                let string = try reader.readString(at: .root)
                if key == "bridge", MessageBridge(rawValue: string) == nil {
                    let names = MessageBridge.allCases.map(\.rawValue).joined(separator: ", ")
                    throw invalid("\"bridge\" must be one of \(names), not \"\(string.excerpt())\"")
                }
                arguments += ["--\(entry.option)", string]
            case (.integer, .number):
                let number = try reader.readDouble(at: .root)
                guard number == number.rounded() && abs(number) < 1e9 else { throw invalid("\"\(key)\" must be a whole number") }
                arguments += ["--\(entry.option)", String(Int(number))]
            case (.flag, .bool):
                if try reader.readBool(at: .root) { arguments.append("--\(entry.option)") }
            case (.string, _):
                throw invalid("\"\(key)\" must be a string")
            case (.integer, _):
                throw invalid("\"\(key)\" must be a whole number")
            case (.flag, _):
                throw invalid("\"\(key)\" must be true or false")
            }
        }
        return arguments
    }
}
