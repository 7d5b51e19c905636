#if canImport(WebKit)
public import WebKit

@available(macOS 11.0, iOS 14.0, visionOS 1.0, *)
extension RenderedScripts {
    /// The blocking script as a `WKUserScript`: document start, every frame, in the page world
    /// (`WKContentWorld.page`), where surrogates must define the page's globals.
    @MainActor
    public var blockingUserScript: WKUserScript {
        WKUserScript(source: blocking.source, injectionTime: .atDocumentStart, forMainFrameOnly: false, in: .page)
    }

    /// The inference script as a `WKUserScript`: document start, every frame, in the isolated
    /// `WKContentWorld.defaultClient` world, where the page can neither see nor patch it.
    @MainActor
    public var inferenceUserScript: WKUserScript {
        WKUserScript(source: inference.source, injectionTime: .atDocumentStart, forMainFrameOnly: false, in: .defaultClient)
    }

    /// Adds both scripts to `controller` and registers `handler` under ``ScriptSettings/handler``
    /// in both content worlds (each script posts in its own world).
    ///
    /// Messages in the page world can come from page scripts too: the handler must check each
    /// message's `secret` against ``secret`` (the `PrivacyStats` module does). WebKit raises an
    /// exception when a handler of that name is already registered in a world, so call this once
    /// per controller.
    @MainActor
    public func install(in controller: WKUserContentController, handler: any WKScriptMessageHandler) {
        controller.addUserScript(blockingUserScript)
        controller.addUserScript(inferenceUserScript)
        controller.add(handler, contentWorld: .page, name: settings.handler)
        controller.add(handler, contentWorld: .defaultClient, name: settings.handler)
    }
}
#endif
