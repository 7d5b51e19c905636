import Foundation
import Testing
@testable import TrackerlessRuntime
import TrackerlessTestSupport

/// Redirects are followed up to the policy's limit, to another origin unless the policy keeps to
/// one, never from https to http; the conditional headers go along.
@Suite("ProtectionUpdater: redirects")
struct UpdaterRedirectTests {
    @Test("a same-origin redirect is followed; the report gives where the body came from; the next check's 304 comes through it")
    func sameOrigin() async throws {
        let fixture = try UpdaterFixture(configuration: false)
        defer { fixture.remove() }
        try fixture.server.route("/moved.json", .init(status: 301, location: "/tds.json"))
        let runtime = try ProtectionRuntime(inputs: RuntimeFixture.inputs, cacheDirectory: fixture.directory + "-moved")
        defer { try? FileManager.default.removeItem(atPath: fixture.directory + "-moved") }
        let updater = try ProtectionUpdater(
            runtime: runtime, sources: UpdaterFixture.sources(fixture.server, configuration: false, tdsPath: "/moved.json"),
            policy: UpdaterFixture.policy)
        let report = await updater.checkNow()
        #expect(report.outcome == .updated, "\(report.jsonValue.jsonString())")
        #expect(report.input(.trackerData)?.url == fixture.server.url("/moved.json").absoluteString)
        #expect(report.input(.trackerData)?.finalURL == fixture.server.url("/tds.json").absoluteString)

        let again = await updater.checkNow()
        #expect(again.outcome == .unchanged && again.input(.trackerData)?.status == 304)
        #expect(fixture.server.requests("/tds.json").last?.ifNoneMatch == "\"tds-2\"")
    }

    @Test("a redirect to another origin (127.0.0.1 to localhost) is followed by default, refused when the policy keeps to one origin")
    func crossOrigin() async throws {
        let fixture = try UpdaterFixture(configuration: false)
        defer { fixture.remove() }
        try fixture.server.route("/elsewhere.json", .init(status: 302, location: "http://localhost:{port}/tds.json"))
        let sources = UpdaterFixture.sources(fixture.server, configuration: false, tdsPath: "/elsewhere.json")

        let followed = try ProtectionUpdater(runtime: fixture.runtime, sources: sources, policy: UpdaterFixture.policy)
        let report = await followed.checkNow()
        #expect(report.outcome == .updated, "\(report.jsonValue.jsonString())")
        #expect(report.input(.trackerData)?.finalURL == "http://localhost:\(fixture.server.port)/tds.json")

        let directory = try RuntimeFixture.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let runtime = try ProtectionRuntime(inputs: RuntimeFixture.inputs, cacheDirectory: directory)
        let policy = UpdaterFixture.policy { $0.allowsCrossOriginRedirects = false }
        let keeping = try ProtectionUpdater(runtime: runtime, sources: sources, policy: policy)
        let refused = await keeping.checkNow()
        #expect(refused.outcome == .refused)
        guard case .redirectRefused(let why)? = refused.error?.reason else {
            Issue.record("not a refused redirect: \(String(describing: refused.error))")
            return
        }
        #expect(why.contains("another origin, http://localhost:\(fixture.server.port)"), "\(why)")
    }

    @Test("a redirect loop: refused after the policy's maxRedirects")
    func loop() async throws {
        let fixture = try UpdaterFixture(configuration: false, trackerData: .init(status: 302, location: "/tds.json"))
        defer { fixture.remove() }
        let before = fixture.runtime.currentSet
        let report = await fixture.updater.checkNow()
        #expect(report.outcome == .refused)
        guard case .redirectRefused(let why)? = report.error?.reason else {
            Issue.record("not a refused redirect: \(String(describing: report.error))")
            return
        }
        #expect(why.contains("more than 5 redirects"), "\(why)")
        #expect(fixture.runtime.currentSet === before)
        #expect(fixture.server.requests("/tds.json").count == 6)
    }

    @Test("from https to http, to another scheme, past the limit: not followed (the decision the delegate applies)")
    func decisions() {
        var policy = UpdatePolicy()
        policy.maxRedirects = 2
        let download = HTTPDownload(url: URL(string: "https://a.example/tds.json")!, etag: nil, lastModified: nil, policy: policy)
        let secure = URL(string: "https://a.example/tds.json")!
        #expect(download.redirectProblem(from: secure, to: URL(string: "https://cdn.example/tds.json")!, count: 1) == nil)
        #expect(download.redirectProblem(from: secure, to: URL(string: "http://a.example/tds.json")!, count: 1)?.contains("from https to http") == true)
        #expect(download.redirectProblem(from: secure, to: URL(string: "file:///etc/passwd")!, count: 1)?.contains("not an http or https URL") == true)
        #expect(download.redirectProblem(from: secure, to: URL(string: "https://a.example/x")!, count: 3)?.contains("more than 2 redirects") == true)
        #expect(download.redirectProblem(from: URL(string: "http://a.example/")!, to: URL(string: "https://a.example/")!, count: 1) == nil)
        #expect(HTTPDownload.origin(of: URL(string: "HTTPS://A.example/x")!) == HTTPDownload.origin(of: URL(string: "https://a.example:443/y")!))
    }
}
