/// The JavaScript world a ``UserScript`` runs in, and where its message handler is registered.
public enum ScriptWorld: Sendable, Hashable {
    /// The page's own world (WebKit's `WKContentWorld.page`, WebKitGTK's default world): where
    /// surrogates must define the page's globals.
    case page
    /// An isolated world of this name, where the page can neither see nor patch the script
    /// (WebKitGTK: `webkit_user_script_new_for_world`; Apple: `WKContentWorld.world(name:)`).
    case isolated(name: String)

    /// The world name for APIs that take one; nil for the page world.
    public var name: String? {
        switch self {
        case .page: nil
        case .isolated(let name): name
        }
    }
}
