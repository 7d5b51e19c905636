public import TrackerDataKit
public import TrackerlessCore

/// The scripts of one render: the blocking script (page world) and the inference script
/// (isolated world), sharing one secret, with the problems found in the inputs.
public struct RenderedScripts: Sendable, Hashable {
    /// The blocking script: tracker data, surrogates, and blocking in script when asked.
    public let blocking: RenderedScript
    /// The inference script: reports what the page loaded and what failed.
    public let inference: RenderedScript
    /// Problems in the inputs that were skipped, with their place (a tds rule naming a missing
    /// surrogate, a surrogate file without its header line).
    public let warnings: [InputWarning]
    /// The settings the scripts were rendered with: the host registers its message handler
    /// under ``ScriptSettings/handler``.
    public let settings: ScriptSettings

    /// Creates the result of a render.
    init(blocking: RenderedScript, inference: RenderedScript, warnings: [InputWarning], settings: ScriptSettings) {
        self.blocking = blocking
        self.inference = inference
        self.warnings = warnings
        self.settings = settings
    }

    /// The secret both scripts carry.
    public var secret: ScriptSecret { blocking.secret }

    /// Both scripts carrying `secret` (see ``RenderedScript/withSecret(_:)``).
    public func withSecret(_ secret: ScriptSecret) -> RenderedScripts {
        RenderedScripts(
            blocking: blocking.withSecret(secret), inference: inference.withSecret(secret), warnings: warnings, settings: settings)
    }
}
