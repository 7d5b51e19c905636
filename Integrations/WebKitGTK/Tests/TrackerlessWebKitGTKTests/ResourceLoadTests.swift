import Testing
import TrackerlessWebKitGTK

/// Which URLs of a load WebKit reported are known to have reached a server: what rules and
/// script modes count as allowed (DashboardStatementsBrowserTests checks it in the browser).
@Suite("ResourceLoad: the URLs that reached a server")
struct ResourceLoadTests {
    static func load(redirects: [String] = [], status: Int? = nil, outcome: ResourceLoad.Outcome = .pending) -> ResourceLoad {
        var load = ResourceLoad(url: "https://site.example/a", method: "GET", isMainResource: false, outcome: outcome)
        load.redirects = redirects
        load.responseStatus = status
        return load
    }

    @Test("pending: none until a redirect answers the first URL, all once a response arrived")
    func pending() {
        #expect(Self.load().urlsReachingServer == 0)
        #expect(Self.load(redirects: ["https://tracker.example/b"]).urlsReachingServer == 1)
        #expect(Self.load(redirects: ["https://tracker.example/b"], status: 200).urlsReachingServer == 2)
    }

    @Test("finished without a response (a media load a content filter stopped): none but those a redirect answered")
    func finishedWithoutResponse() {
        #expect(Self.load(status: 0, outcome: .finished).urlsReachingServer == 0)
        #expect(Self.load(redirects: ["https://b.example/"], status: 0, outcome: .finished).urlsReachingServer == 1)
        #expect(Self.load(status: 404, outcome: .finished).urlsReachingServer == 1)
    }

    @Test("failed: every URL WebKit named, the first of a redirect a content filter stopped too, never its target")
    func failed() {
        let stopped = ResourceLoad.Outcome.failed(domain: "WebKitPolicyError", code: 104, message: "The URL was blocked by a content blocker")
        let blocked = Self.load(status: 0, outcome: stopped)
        #expect(blocked.urlsReachingServer == 1 && blocked.urls == ["https://site.example/a"])
        let cancelled = Self.load(redirects: ["https://b.example/"], status: 0, outcome: .failed(domain: "WebKitNetworkError", code: 302, message: "cancelled"))
        #expect(cancelled.urlsReachingServer == 2)
    }
}
