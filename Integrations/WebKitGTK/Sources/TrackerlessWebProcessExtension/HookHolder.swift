import RequestHookKit

/// The process's current hook, shared by its pages' handlers.
final class HookHolder {
    /// The message that carries a new configuration (the UI side's
    /// `WebProcessExtension.configurationMessage`).
    static let configurationMessage = "trackerless.configuration"
    var hook: RequestHook
    init(hook: RequestHook) { self.hook = hook }
}
