import Foundation
import NavigationProtections
import PrivacyStatsKit
import Testing
import TrackerlessRuntime
import TrackerlessTestSupport
import UserScripts

/// The navigation decision a set offers with its rule lists and scripts: from the same
/// configuration, blocklist and allowlist, with the user's GPC setting and the HTTPS filter of
/// the inputs; the runtime's plan for a navigation applies it with the site toggles, and an
/// update replaces it with the rest of the set.
@Suite("ProtectionRuntime: the navigation decision")
struct NavigationDecisionRuntimeTests {
    /// Content blocking, tracking parameters, AMP links, GPC (header on the sites listed), HTTPS
    /// upgrades (the filter decides where) and referrer trimming.
    static let configuration = #"""
        {"features": {
           "contentBlocking": {"state": "enabled", "exceptions": []},
           "https": {"state": "enabled", "exceptions": []},
           "referrer": {"state": "enabled", "exceptions": []},
           "trackingParameters": {"state": "enabled", "exceptions": [], "settings": {"parameters": ["utm_source", "fbclid"]}},
           "ampLinks": {"state": "enabled", "exceptions": [],
             "settings": {"linkFormats": ["^https?:\\/\\/(?:w{3}\\.)?google\\.\\S{2,}\\/amp\\/s\\/(\\S+)$"], "keywords": ["/amp"]}},
           "gpc": {"state": "enabled", "exceptions": [], "settings": {"gpcHeaderEnabledSites": ["news.example", "firsttest.com"]}}},
         "unprotectedTemporary": []}
        """#

    static var inputs: ProtectionInputs {
        var inputs = ProtectionInputs.sample
        inputs.privacyConfiguration = .bytes(Array(configuration.utf8), name: "privacy-config.json")
        return inputs
    }

    @Test("a set's decision strips the configuration's tracking parameters, resolves AMP links and sends GPC; off for the user, no header")
    func setDecision() throws {
        let set = try ProtectionSet.build(Self.inputs)
        let decision = set.navigationProtector.decision(for: Navigation(url: "https://news.example/a?utm_source=x&id=1&fbclid=y"))
        #expect(decision.url == "https://news.example/a?id=1")
        #expect(decision.reasons == [.trackingParametersRemoved, .globalPrivacyControl])
        #expect(decision.gpcHeader == "1")
        let amp = set.navigationProtector.decision(for: Navigation(url: "https://www.google.com/amp/s/news.example/story?utm_source=x"))
        #expect(amp.url == "https://news.example/story")
        #expect(amp.reasons.prefix(2) == [.ampLinkResolved, .trackingParametersRemoved])

        var off = Self.inputs
        off.globalPrivacyControl = false
        #expect(!off.scriptSettings.globalPrivacyControl, "one setting for the navigation decision and the scripts")
        let withoutGPC = try ProtectionSet.build(off).navigationProtector.decision(for: Navigation(url: "https://news.example/"))
        #expect(withoutGPC.gpcHeader == nil && withoutGPC.reasons.isEmpty)
        // The GPC setting is the scripts' too (navigator.globalPrivacyControl): another set.
        #expect(try ProtectionSet.build(off).identity != set.identity)
    }

    @Test("a set loaded from the cache (blocklist parsed on first use) decides as the built one")
    func cachedSet() throws {
        let directory = try RuntimeFixture.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let built = try ProtectionSet.load(Self.inputs, cacheDirectory: directory)
        let cached = try ProtectionSet.load(Self.inputs, cacheDirectory: directory)
        #expect(cached.origin == .cache)
        let navigation = Navigation(
            url: "https://news.example/a?fbclid=1", initiator: "https://blog.example/post", referrer: "https://blog.example/post")
        #expect(cached.navigationProtector.decision(for: navigation) == built.navigationProtector.decision(for: navigation))
        #expect(cached.navigationProtector.decision(for: navigation).url == "https://news.example/a")
        // Referrer trimming, which needs the blocklist's owners: cut to its origin across sites.
        #expect(cached.navigationProtector.decision(for: navigation).referrer == "https://blog.example/")
    }

    @Test("the runtime's plan loads the decided URL, with that URL's protection; a site turned off gets no navigation protection")
    func runtimePlan() throws {
        let directory = try RuntimeFixture.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let runtime = try ProtectionRuntime(inputs: Self.inputs, cacheDirectory: directory)
        let plan = runtime.navigationPlan(for: Navigation(url: "https://www.google.com/amp/s/news.example/story?utm_source=x"))
        #expect(plan.url == "https://news.example/story")
        #expect(plan.isProtected && plan.decision?.reasons.first == .ampLinkResolved)
        #expect(plan.protectionSet === runtime.currentSet)

        try runtime.setProtection(false, forSite: "news.example")
        let off = runtime.navigationPlan(for: Navigation(url: "https://news.example/a?utm_source=x"))
        #expect(off.url == "https://news.example/a?utm_source=x" && !off.isProtected)
        #expect(off.decision?.gpcHeader == nil)
        // Started from the unprotected site: the destination keeps its parameters too.
        let fromOff = runtime.navigationPlan(for: Navigation(url: "https://shop.example/?fbclid=1", initiator: "https://news.example/"))
        #expect(fromOff.url == "https://shop.example/?fbclid=1")
        try runtime.setProtection(true, forSite: "news.example")
        #expect(runtime.navigationPlan(for: Navigation(url: "https://news.example/a?utm_source=x")).url == "https://news.example/a")
    }

    @Test("an update replaces the decision with the rest of the set: never one generation's lists with another's decision")
    func update() async throws {
        let directory = try RuntimeFixture.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let runtime = try ProtectionRuntime(inputs: Self.inputs, cacheDirectory: directory)
        let navigation = Navigation(url: "https://news.example/a?utm_source=x")
        #expect(runtime.navigationPlan(for: navigation).url == "https://news.example/a")
        let before = runtime.currentSet
        let updated = try await runtime.update(privacyConfiguration: .bytes(Array(RuntimeFixture.configuration.utf8), name: "config-2.json"))
        let plan = runtime.navigationPlan(for: navigation)
        #expect(plan.protectionSet === updated && plan.protectionSet !== before)
        #expect(plan.url == navigation.url, "the new configuration has no trackingParameters feature")
        #expect(before.navigationProtector.decision(for: navigation).url == "https://news.example/a", "the old set keeps its own")
    }

    @Test("the HTTPS filter directory upgrades where the filter says so; a broken one is an error naming the file, and an update with it changes nothing",
          .enabled(if: SharedData.shouldRun("privacy-reference-tests/https-upgrades/https_bloomfilter_reference.bin"), SharedData.skipMessage))
    func httpsFilter() async throws {
        let directory = try RuntimeFixture.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let filter = directory + "/https"
        try FileManager.default.createDirectory(atPath: filter, withIntermediateDirectories: true)
        for (reference, name) in [("https_bloomfilter_reference.bin", "https_bloomfilter.bin"),
                                  ("https_bloomfilter_spec_reference.json", "https_bloomfilter_spec.json"),
                                  ("https_allowlist_reference.json", "https_allowlist.json")] {
            try FileManager.default.copyItem(
                atPath: SharedData.path("privacy-reference-tests/https-upgrades/" + reference), toPath: filter + "/" + name)
        }
        var inputs = Self.inputs
        inputs.httpsFilterDirectory = filter
        let runtime = try ProtectionRuntime(inputs: inputs, cacheDirectory: directory + "/cache")
        let plan = runtime.navigationPlan(for: Navigation(url: "http://firsttest.com/page?utm_source=x"))
        #expect(plan.url == "https://firsttest.com/page")
        #expect(plan.decision?.reasons == [.trackingParametersRemoved, .upgradedToHTTPS, .globalPrivacyControl])
        #expect(runtime.navigationPlan(for: Navigation(url: "http://not-in-the-filter.com/")).url == "http://not-in-the-filter.com/")

        try Data("{".utf8).write(to: URL(fileURLWithPath: filter + "/https_bloomfilter_spec.json"))
        var broken = inputs
        broken.httpsFilterDirectory = filter
        broken.globalPrivacyControl = false
        let current = runtime.currentSet
        await #expect {
            try await runtime.update(broken)
        } throws: { error in
            let error = error as? ProtectionError
            return error?.input == .httpsFilter && error?.description.contains("https_bloomfilter_spec.json") == true
        }
        #expect(runtime.currentSet === current)
        #expect(runtime.navigationPlan(for: Navigation(url: "http://firsttest.com/")).url == "https://firsttest.com/")
        #expect(throws: ProtectionError.self) { try ProtectionSet.build(broken) }
    }
}

/// The click on a Click-to-Load placeholder reaches the host through the runtime: from an
/// accepted blocking-script message only.
@Suite("ProtectionRuntime: Click-to-Load clicks")
struct ClickToLoadClickTests {
    static let page = "https://news.example/"

    static func message(secret: String, script: String = "blocking", token: String = "0123456789abcdef") -> String {
        #"{"trackerless":1,"secret":"\#(secret)","script":"\#(script)","page":{"id":"fedcba9876543210","url":"\#(page)","frame":"\#(page)","isTopFrame":true},"seq":0,"events":[{"kind":"clickToLoad","url":"https://www.youtube.com/embed/abc","action":"block-ctl-yt","token":"\#(token)"}]}"#
    }

    @Test("a blocking-script click is handed over with its answer; the inference script's, a forged one and one for another tab are not")
    func clicks() throws {
        let directory = try RuntimeFixture.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let runtime = try ProtectionRuntime(inputs: RuntimeFixture.inputs, cacheDirectory: directory)
        runtime.didCommitNavigation(tab: "1", url: Self.page)
        var clicks: [ClickToLoadRequest] = []
        let accepted = runtime.receive(.json(Self.message(secret: runtime.secret.value)), tab: "1") { clicks.append($0) }
        #expect(accepted == .accepted(events: 1))
        #expect(clicks == [ClickToLoadRequest(url: "https://www.youtube.com/embed/abc", action: "block-ctl-yt", token: "0123456789abcdef")])
        #expect(clicks.first?.answerScript
            == #"window.dispatchEvent(new CustomEvent("trackerless-click-to-load", {detail: "0123456789abcdef"}));"#)

        clicks = []
        let forged = runtime.receive(.json(Self.message(secret: String(repeating: "0", count: 32))), tab: "1") { clicks.append($0) }
        #expect(forged == .rejected(.wrongSecret))
        // The inference script never posts clicks: whether the statistics take such a message or
        // not, it unblocks nothing.
        _ = runtime.receive(.json(Self.message(secret: runtime.secret.value, script: "inference")), tab: "1") { clicks.append($0) }
        let otherTab = runtime.receive(.json(Self.message(secret: runtime.secret.value)), tab: "2") { clicks.append($0) }
        #expect(otherTab == .rejected(.unknownTab))
        #expect(clicks.isEmpty)
        #expect(runtime.stats.rejections()[.wrongSecret] == 1)
    }
}
