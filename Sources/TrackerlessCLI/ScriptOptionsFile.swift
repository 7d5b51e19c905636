import TrackerlessCore
import UserScripts

/// `trackerless scripts --options FILE`: rendering options kept in a JSON file, the
/// `trackerless.json` of a target that uses the build plugin, for example
/// `{"bridge": "android", "handler": "trackerless", "blockInScript": true}`.
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
        ("debug", "debug", .flag),
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
        let value: JSONValue
        do {
            value = try JSONParser.parse(try FileIO.read(path: path))
        } catch {
            throw InputError("\(path): \(error)")
        }
        guard case .object(let object) = value else {
            throw InputError("\(path): must be a JSON object of options (\(keys.map(\.key).joined(separator: ", ")))")
        }
        var arguments: [String] = []
        for (index, key) in object.keys.enumerated() {
            guard let entry = keys.first(where: { $0.key == key }) else {
                throw InputError("\(path): unknown option \"\(key.excerpt())\"; the options are \(keys.map(\.key).joined(separator: ", "))")
            }
            switch (entry.kind, object.values[index]) {
            case (.string, .string(let string)) where key == "bridge" && MessageBridge(rawValue: string) == nil:
                let names = MessageBridge.allCases.map(\.rawValue).joined(separator: ", ")
                throw InputError("\(path): \"bridge\" must be one of \(names), not \"\(string.excerpt())\"")
            case (.string, .string(let string)):
                arguments += ["--\(entry.option)", string]
            case (.integer, .number(let number)) where number == number.rounded() && abs(number) < 1e9:
                arguments += ["--\(entry.option)", String(Int(number))]
            case (.flag, .bool(let isOn)):
                if isOn { arguments.append("--\(entry.option)") }
            case (.string, _):
                throw InputError("\(path): \"\(key)\" must be a string")
            case (.integer, _):
                throw InputError("\(path): \"\(key)\" must be a whole number")
            case (.flag, _):
                throw InputError("\(path): \"\(key)\" must be true or false")
            }
        }
        return arguments
    }
}
