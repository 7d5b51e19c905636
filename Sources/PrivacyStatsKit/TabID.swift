/// The host's name for a browser tab (or web view); any string the host likes.
public struct TabID: Sendable, Hashable, Comparable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The identifier.
    public var rawValue: String

    /// Creates an identifier.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// Creates an identifier from a literal.
    public init(stringLiteral value: String) { rawValue = value }

    /// The identifier.
    public var description: String { rawValue }

    /// Orders by the identifier, so snapshots of several tabs come out in a stable order.
    public static func < (lhs: TabID, rhs: TabID) -> Bool { lhs.rawValue < rhs.rawValue }
}
