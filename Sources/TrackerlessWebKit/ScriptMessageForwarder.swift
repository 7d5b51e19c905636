// Part of the Apple adapter (see WebKitProtection.swift): built only where Apple's WebKit exists.
#if canImport(WebKit)
import WebKit

/// The message handler ``WebKitProtection`` registers in both worlds: it hands each message's
/// body, as WebKit decoded it, to its owner. The content controller keeps its handlers strongly,
/// so this object holds its owner only through the closure, which captures it weakly.
@MainActor
final class ScriptMessageForwarder: NSObject, WKScriptMessageHandler {
    /// The handler name the scripts post to.
    let name: String
    private let receive: (Any) -> Void

    init(name: String, receive: @escaping (Any) -> Void) {
        self.name = name
        self.receive = receive
    }

    func userContentController(_ userContentController: WKUserContentController, didReceive message: WKScriptMessage) {
        receive(message.body)
    }
}
#endif
