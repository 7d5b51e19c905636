/// Where a value sits inside a JSON document, for error messages such as
/// `trackers["x.com"].rules[3].rule`.
public struct JSONPath: Sendable, Hashable, CustomStringConvertible {
    /// One step from a container to a member.
    public enum Component: Sendable, Hashable {
        /// A member of an object.
        case key(String)
        /// An element of an array, zero-based.
        case index(Int)
    }

    /// The steps from the document's root value.
    public var components: [Component]

    /// The document's root value.
    public static let root = JSONPath(components: [])

    /// Creates a path from steps.
    public init(components: [Component]) {
        self.components = components
    }

    /// The path of the member `key` of the object at this path.
    public func appending(key: String) -> JSONPath {
        JSONPath(components: components + [.key(key)])
    }

    /// The path of element `index` of the array at this path.
    public func appending(index: Int) -> JSONPath {
        JSONPath(components: components + [.index(index)])
    }

    /// JavaScript-like notation: identifier keys as `.name` (without a dot at the start), other
    /// keys as `["x.com"]`, indices as `[3]`; the root is `(root)`.
    public var description: String {
        guard !components.isEmpty else { return "(root)" }
        var text = ""
        for component in components {
            switch component {
            case .key(let key) where key.utf8.count <= String.excerptLimit && Self.isIdentifier(key):
                if !text.isEmpty { text += "." }
                text += key
            case .key(let key):
                var writer = JSONWriter()
                writer.writeString(key.excerpt())
                text += "[" + String(decoding: writer.bytes, as: UTF8.self) + "]"
            case .index(let index):
                text += "[\(index)]"
            }
        }
        return text
    }

    /// Whether `key` reads unambiguously after a dot: ASCII letters, digits, `_` and `$`, not
    /// starting with a digit.
    private static func isIdentifier(_ key: String) -> Bool {
        guard let first = key.utf8.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else {
            return false
        }
        return key.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "$"):
                return true
            default:
                return false
            }
        }
    }
}
