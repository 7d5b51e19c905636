/// Which frame issues a load, as a trigger's `load-context` names it.
public enum LoadContext: String, Sendable, Hashable, CaseIterable {
    /// The main frame issues the load (including its own navigation).
    case topFrame = "top-frame"
    /// A frame inside the page issues the load (including the frame's own navigation).
    case childFrame = "child-frame"
}

extension LoadContext {
    var flags: ResourceFlags {
        switch self {
        case .topFrame: .topFrame
        case .childFrame: .childFrame
        }
    }
}
