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
    /// The message queue both scripts share: one JS function expression (code),
    /// `parts/message-queue.js`.
    case messageQueue = "MESSAGE_QUEUE"
}
