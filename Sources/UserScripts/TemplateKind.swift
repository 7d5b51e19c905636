/// Which template a file is, and so which placeholders it takes: all of them, each at least once.
enum TemplateKind: String, Sendable, CaseIterable {
    case blocking = "blocking.js"
    case inference = "inference.js"

    var placeholders: [Placeholder] {
        switch self {
        case .blocking: [.trackerData, .surrogates, .settings, .secret, .bridge, .messageQueue]
        case .inference: [.settings, .secret, .bridge, .messageQueue]
        }
    }
}
