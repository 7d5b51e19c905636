/// A `$NAME$` placeholder of a template, by the kind of text the renderer puts in its place.
enum Placeholder: String, Sendable, CaseIterable {
    /// The compact tracker data: JSON, escaped for script context.
    case trackerData = "TRACKER_DATA"
    /// The surrogates: a JS object literal of functions (code).
    case surrogates = "SURROGATES"
    /// ``ScriptSettings``: a JSON object, escaped for script context.
    case settings = "SETTINGS"
    /// The secret: a JSON string literal.
    case secret = "SECRET"
    /// The bridge: one JS function expression (code).
    case bridge = "BRIDGE"
}

/// Which template a file is, and so which placeholders it takes: all of them, each at least once.
enum TemplateKind: String, Sendable, CaseIterable {
    case blocking = "blocking.js"
    case inference = "inference.js"

    var placeholders: [Placeholder] {
        switch self {
        case .blocking: [.trackerData, .surrogates, .settings, .secret, .bridge]
        case .inference: [.settings, .secret, .bridge]
        }
    }
}
