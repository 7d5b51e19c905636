import Foundation
import Testing
import TrackerDataKit
import TrackerlessCore
import TrackerlessTestSupport

/// What the blocking script stops on its own (`--block-in-script`, no rule list: a host without a
/// content blocker), pinned in real WebKit. The proxy's log is the truth: a load that reached it
/// was not stopped. A script in the page cannot stop a load the HTML parser starts before any
/// script could see the element; it stops the loads that page script starts through the APIs it
/// wraps. UserScripts' article "What the scripts do" (`WhatTheScriptsDo.md`) says the same; a
/// change here must change both.
@Suite(
    "Blocking in script, in WebKitGTK",
    .enabled(if: TrackerlessScriptsCommand.shouldRunInWebKit, TrackerlessScriptsCommand.skipMessage),
    .serialized
)
struct BlockInScriptInWebKitTests {
    static let secret = "fedcba9876543210fedcba9876543210"
    static let page = "https://news.example/block-in-script"
    static let gpt = "https://securepubads.g.doubleclick.net/tag/js/gpt.js"

    /// Google's surrogate scripts (gpt.js among them) and tracker.example, blocked by default.
    static let trackerData = UserScriptsInWebKitTests.trackerData

    /// Each way a page loads a tracker URL, by the URL it uses.
    static let loads: [(url: String, how: String, stopped: Bool)] = [
        ("https://js.tracker.example/parser.js", "<script src> in the HTML", false),
        (gpt, "<script async src> in the HTML, a surrogate's URL (the surrogate runs too)", false),
        ("https://pixel.tracker.example/parser.gif", "<img src> in the HTML", false),
        ("https://widgets.tracker.example/parser.html", "<iframe src> in the HTML", false),
        ("https://pixel.tracker.example/preload.gif", "<link rel=preload> in the HTML", false),
        ("https://pixel.tracker.example/css.gif", "a CSS background image", false),
        ("https://js.tracker.example/dynamic.js", "a script element made and added by script", true),
        ("https://pixel.tracker.example/dynamic.gif", "an img element made and added by script", true),
        ("https://pixel.tracker.example/image.gif", "new Image() with a src, never added", true),
        ("https://widgets.tracker.example/dynamic.html", "an iframe made and added by script", true),
        ("https://api.tracker.example/fetch", "fetch()", true),
        ("https://api.tracker.example/xhr", "XMLHttpRequest", true),
        ("https://api.tracker.example/beacon", "navigator.sendBeacon()", true),
    ]

    static let pageHTML = """
        <!DOCTYPE html><html><head><meta charset=utf-8><title>loading</title>
        <script src="https://js.tracker.example/parser.js"></script>
        <script async src="\(gpt)"></script>
        <link rel="preload" as="image" href="https://pixel.tracker.example/preload.gif">
        <style>body { background-image: url("https://pixel.tracker.example/css.gif"); }</style>
        </head><body>
        <img src="https://pixel.tracker.example/parser.gif">
        <iframe src="https://widgets.tracker.example/parser.html"></iframe>
        <script>
        var s = document.createElement('script'); s.src = 'https://js.tracker.example/dynamic.js'; document.head.appendChild(s);
        var i = document.createElement('img'); i.src = 'https://pixel.tracker.example/dynamic.gif'; document.body.appendChild(i);
        new Image().src = 'https://pixel.tracker.example/image.gif';
        var f = document.createElement('iframe'); f.src = 'https://widgets.tracker.example/dynamic.html'; document.body.appendChild(f);
        fetch('https://api.tracker.example/fetch').catch(function () {});
        var x = new XMLHttpRequest(); x.open('GET', 'https://api.tracker.example/xhr'); x.onerror = function () {}; x.send();
        navigator.sendBeacon('https://api.tracker.example/beacon', 'x');
        window.addEventListener('load', function () { setTimeout(function () { document.title = 'done'; }, 1500); });
        </script>
        </body></html>
        """

    static let run: Result<UserScriptHarness.PageResult, any Error> = Result {
        guard let harness = try UserScriptHarness.make() else {
            throw WebKitHarness.Failure.unavailable("WebKitGTK is not installed")
        }
        let scripts = try TrackerlessScriptsCommand.render(trackerData: trackerData, secret: secret, blockInScript: true)
        var spec = UserScriptHarness.Spec()
        spec.scripts = [.init(source: scripts.blocking, world: nil)]
        spec.handlers = [("trackerless", nil)]
        var resources: [String: UserScriptHarness.Resource] = [page: .html(pageHTML)]
        for load in loads {
            resources[load.url] = load.url.hasSuffix(".gif") ? .gif
                : load.url.hasSuffix(".html") ? .html("<p>frame</p>") : load.url.hasSuffix(".js") ? .script("window.loaded = 1;") : .text("ok")
        }
        spec.resources = resources
        spec.pages = [.init(id: "page", url: page, timeout: 20, settle: 1.0, result: "({gpt: typeof window.googletag})")]
        return try #require(try harness.run(spec)["page"])
    }

    @Test("what reaches the network: loads the HTML parser starts; what does not: loads page script starts", arguments: loads.indices)
    func load(_ index: Int) throws {
        let result = try Self.run.get()
        #expect(result.done, "the page never finished")
        let load = Self.loads[index]
        #expect(result.requested(load.url) == !load.stopped,
                "\(load.how): \(result.requested(load.url) ? "reached the network" : "was stopped")")
    }

    @Test("the surrogate of a parser-inserted script still runs: the page's googletag works")
    func surrogateRuns() throws {
        let result = try Self.run.get()
        #expect(try result["gpt"]?.string() == "object")
    }
}
