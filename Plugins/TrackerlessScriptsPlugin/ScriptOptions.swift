import Foundation

/// The options a target's `trackerless.json` gives `trackerless scripts`, for example
/// `{"bridge": "android", "handler": "trackerless", "blockInScript": true}`.
///
/// Every key is optional; the command's defaults apply to a missing one. An unknown key or a
/// value of the wrong type is an error naming the file and the key, so a typo is not ignored.
struct ScriptOptions {
    /// How the scripts post messages to the host: `webkit`, `android` or `webview2`.
    var bridge: String?
    /// The name of the host's message handler (WebKit) or injected object (Android).
    var handler: String?
    /// Whether the blocking script also blocks in JavaScript, for hosts without content blockers.
    var blockInScript: Bool?

    static let keys = ["blockInScript", "bridge", "handler"]

    init() {}

    /// Reads the options file.
    ///
    /// - Throws: ``PluginError`` naming the file, and the key when one is wrong.
    init(contentsOf file: URL) throws(PluginError) {
        let values: [String: Value]
        do {
            values = try JSONDecoder().decode([String: Value].self, from: Data(contentsOf: file))
        } catch {
            throw PluginError("\(file.path): not a JSON object of options (\(Self.keys.joined(separator: ", "))): \(error)")
        }
        for (key, value) in values.sorted(by: { $0.key < $1.key }) {
            func wrongType(_ expected: String) -> PluginError {
                PluginError("\(file.path): \"\(key)\" must be \(expected)")
            }
            switch (key, value) {
            case ("bridge", .string(let string)): bridge = string
            case ("bridge", _): throw wrongType("a string: webkit, android or webview2")
            case ("handler", .string(let string)): handler = string
            case ("handler", _): throw wrongType("a string")
            case ("blockInScript", .bool(let bool)): blockInScript = bool
            case ("blockInScript", _): throw wrongType("true or false")
            default:
                throw PluginError("\(file.path): unknown option \"\(key)\"; the options are \(Self.keys.joined(separator: ", "))")
            }
        }
    }

    /// The command-line options of `trackerless scripts` these stand for.
    var arguments: [String] {
        var arguments: [String] = []
        if let bridge { arguments += ["--bridge", bridge] }
        if let handler { arguments += ["--handler", handler] }
        if blockInScript == true { arguments.append("--block-in-script") }
        return arguments
    }

    /// A JSON value of the options file, as far as the options care.
    private enum Value: Decodable {
        case string(String)
        case bool(Bool)
        case other

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let bool = try? container.decode(Bool.self) {
                self = .bool(bool)
            } else if let string = try? container.decode(String.self) {
                self = .string(string)
            } else {
                self = .other
            }
        }
    }
}
