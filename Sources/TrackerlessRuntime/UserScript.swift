/// One script a web view injects: its source, ready to add, and the world it runs in. Every
/// script of a ``ProtectionSet`` is injected at document start in every frame.
public struct UserScript: Sendable, Hashable {
    /// The template's file name: `blocking.js` or `inference.js`.
    public let name: String
    /// The source, carrying the set's secret.
    public let source: String
    /// The world it runs in; the set's message handler is registered in it.
    public let world: ScriptWorld

    /// Creates a script.
    public init(name: String, source: String, world: ScriptWorld) {
        self.name = name
        self.source = source
        self.world = world
    }

    /// Whether this is the blocking script (surrogates, blocking in script), which a page
    /// without protection does not get.
    public var isBlocking: Bool { name == ProtectionSet.blockingScriptName }
}
