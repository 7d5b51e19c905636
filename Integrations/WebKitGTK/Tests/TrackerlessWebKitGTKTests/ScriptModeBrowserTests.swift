import Foundation
import Testing
import TrackerDataKit

/// `trackerless-browser --mode script` (the blocking script alone, as on a host without a content
/// blocker) on pages that load trackers the ways page script can beyond fetch and XHR: relative
/// URLs under a tracker's `<base href>`, WebSocket, EventSource, a worklet, workers, markup it
/// writes (into the page and into an about:blank frame), links with `ping` it clicks, forms it
/// submits into a frame, URLs and styles it gives elements (a link's href, a srcset, a poster, an
/// object's data, an SVG image's href, attribute nodes; declarations, the style attribute, a
/// constructed style sheet, a <style>'s text and insertRule), and style values and text beyond
/// url() (image-set() strings, escaped and cut url()s, FontFace sources, CSS Typed OM values, a
/// <style>'s text changed through its text nodes or joined across them)
/// (Tests/Sites/script-mode.example and media.zoom.com). Each page's tracker URLs reached the server under the blocking script before
/// it stopped them. One browser run
/// loads them all; the proxy's log is what reached the network. UserScripts' article "What the
/// scripts do" (`WhatTheScriptsDo.md`) lists what is stopped and what is left; a change here must
/// change both.
@Suite("Script mode in the WebKitGTK browser", .serialized, .enabled(if: BrowserProcess.canRun, BrowserProcess.skipMessage))
struct ScriptModeBrowserTests {
    static let site = "https://script-mode.example/"

    /// Each page, with the tracker URLs its script starts that must never reach the network, and
    /// URLs of its own that must (the page ran, and what is allowed still loads).
    static let pages: [(url: String, blocked: [String], served: [String])] = [
        (site + "base.html", [
            "https://www.hotjar.com/c/collect?v=1", "https://www.hotjar.com/c/pixel.gif", "https://www.hotjar.com/c/xhr",
            "https://www.hotjar.com/c/beacon", "https://www.hotjar.com/c/frame.html", "https://www.hotjar.com/c/tag.js",
        ], [site + "report.gif?page=base"]),
        (site + "base-surrogate.html", ["https://www.google-analytics.com/analytics.js"],
         [site + "report.gif?page=base-surrogate&callbacks=ga"]),
        (site + "connections.html", [
            "https://www.hotjar.com/socket", "https://www.hotjar.com/stream", "https://www.hotjar.com/worklet.js",
        ], [site + "own-stream", site + "report.gif?page=connections&seen=socket-close-1006,socket-error,stream-error-2,worklet-AbortError"]),
        ("https://media.zoom.com/workers.html", [
            "https://media.zoom.com/worker.js", "https://media.zoom.com/shared.js", "https://media.zoom.com/sw.js",
        ], [site + "report.gif?page=workers&seen=register-TypeError,shared-error,worker-error"]),
        (site + "markup.html", [
            "https://www.hotjar.com/written.gif", "https://www.hotjar.com/frame-written.gif", "https://www.hotjar.com/inner.gif",
            "https://www.hotjar.com/adjacent.gif", "https://www.hotjar.com/srcdoc.gif", "https://www.hotjar.com/fragment.js",
        ], [
            site + "written.gif", site + "frame-written.gif", site + "inner.gif", site + "srcdoc.gif", site + "report.gif?page=markup",
        ]),
        (site + "ping.html", ["https://www.hotjar.com/ping", "https://www.hotjar.com/detached-ping", "https://www.hotjar.com/dispatched-ping"],
         [site + "own-ping", site + "next.html", site + "elsewhere.html", site + "dispatched.html", site + "report.gif?page=ping"]),
        (site + "form.html", ["https://www.hotjar.com/form", "https://www.hotjar.com/requested"],
         [site + "own-form", site + "report.gif?page=form"]),
        (site + "elements.html", [
            "sheet.css", "preload.gif", "srcset.gif", "poster.gif", "object.png", "embed.png", "button.png", "svg.png", "xlink.png",
            "video.mp4", "bg.gif", "csstext.gif", "property.gif", "attribute.gif", "constructed.gif", "import.css", "style.gif",
            "text.gif", "insert.gif",
        ].map { "https://www.hotjar.com/el-" + $0 }, [
            // What WebKit made of the styles whose url() became url("data:,"): the declarations
            // stay (background-image, the color and the repeat beside it), and load nothing.
            site + "el-own.css", site + "el-own-bg.gif", site + "el-own-style.gif", site + "report.gif?page=elements&styles="
                + "url(%22data%3A%2C%22)%20%7C%20url(%22data%3A%2C%22)%20%7C%20rgb(255%2C%200%2C%200)%20%7C%20no-repeat",
        ]),
        (site + "style-values.html", [
            "image-set.gif", "webkit-image-set.gif", "escaped.gif", "cut.gif", "commented.css", "font-face.woff2", "fonts-add.woff2",
            "typed-om.gif", "parse-all.gif", "typed-string.gif", "append-data.gif", "insert-data.gif", "replace-data.gif",
            "joined.gif", "fragment.gif", "nodes.gif", "before.gif", "replace-children.gif", "range.gif", "range-import.css",
            "insert-node.css", "normalize.css",
        ].map { "https://www.hotjar.com/sv-" + $0 }, [
            // The same kinds of value with a URL of the page's own still load: a font among them.
            site + "sv-own-set.gif", site + "sv-own-font.woff2", site + "sv-own-typed.gif", site + "sv-own-append.gif",
            site + "report.gif?page=style-values",
        ]),
    ]

    /// What a script in the page cannot stop, by URL (Tests/Sites/script-mode.example/left.html):
    /// the article's list of what script mode leaves.
    static let left = [
        // import() is syntax, with no function to wrap.
        "https://www.hotjar.com/module.js",
        // A request of the page's own worker: the blocking script runs in documents only.
        "https://www.hotjar.com/from-worker",
        // Where a first-party URL redirects (the proxy's to-tracker.js.redirect): a script sees
        // no redirect before the browser follows it.
        "https://www.hotjar.com/redirected.js",
        // Markup given as a Trusted Types `TrustedHTML` object: the parser reads it as it is.
        "https://www.hotjar.com/trusted-html.gif",
    ]

    static let run: Result<(script: [String], rules: [String]), any Error> = Result {
        let proxy = try BrowserProcess.SiteProxy()
        let script = try ModeEquivalenceTests.run("script", urls: pages.map(\.url) + [site + "left.html"], proxy: proxy)
        try #require(script.status == 0, "\(script.standardError)")
        // A content blocker blocks the parser's analytics.js there: only the surrogate can call back.
        let rules = try ModeEquivalenceTests.run("rules", urls: [site + "base-surrogate.html"], proxy: proxy)
        try #require(rules.status == 0, "\(rules.standardError)")
        return (script.requests.map(\.url), rules.requests.map(\.url))
    }

    @Test("what page script starts reaches the network only when the resolver allows it", arguments: pages.indices)
    func page(_ index: Int) throws {
        let resolver = try #require(BrowserTests.resolver)
        let served = try Self.run.get().script
        let page = Self.pages[index]
        for url in page.blocked {
            // The page's list must name trackers the resolver blocks, or the test could not fail.
            let decision = resolver.decision(forRequestURL: url, topURL: page.url, type: .other)
            #expect(decision?.isBlocked == true, "\(url) is not blocked on \(page.url): \(String(describing: decision?.reason))")
            let reached = served.contains(url)
            #expect(!reached, "\(url) reached the network from \(page.url)")
        }
        for url in page.served {
            let reached = served.contains(url)
            #expect(reached, "\(url) never reached the network: \(served.filter { $0.hasPrefix(Self.site) })")
        }
    }

    @Test("what a script cannot stop reaches the network, and nothing else of the page's trackers")
    func left() throws {
        let resolver = try #require(BrowserTests.resolver)
        let page = Self.site + "left.html"
        let all = try Self.run.get().script
        // The pages load one after the other, left.html last: what follows it is its own.
        let served = Array(all.drop(while: { $0 != page }))
        let trackers = Set(served.filter { $0.hasPrefix("https://www.hotjar.com/") })
        #expect(trackers == Set(Self.left), "\(trackers.sorted())")
        for url in Self.left {
            #expect(resolver.decision(forRequestURL: url, topURL: page, type: .other)?.isBlocked == true, "\(url)")
        }
        #expect(served.contains(Self.site + "report.gif?page=left"))
    }

    @Test("rules mode: a relative analytics.js under <base href> is blocked and its surrogate calls the page back")
    func surrogateUnderBase() throws {
        let served = try Self.run.get().rules
        #expect(!served.contains("https://www.google-analytics.com/analytics.js"))
        let calledBack = served.contains(Self.site + "report.gif?page=base-surrogate&callbacks=ga")
        #expect(calledBack, "the page reported: \(served.filter { $0.contains("report.gif") })")
    }
}
