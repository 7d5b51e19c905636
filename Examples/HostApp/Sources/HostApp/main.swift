// A host app's start-up with what TrackerlessScriptsPlugin compiled into this target from
// Sources/HostApp/tds.json: the scripts to inject and the rule list to compile, and the same
// blocklist for the host's own TrackerResolver, which classifies every URL the scripts report.
// The lines from `import TrackerDataKit` to the resolver are UserScripts' article "Rendering at
// build time"'s, word for word (a test checks it).
import Foundation
import TrackerlessCore  // ScriptSecret.marker, for the check below; before the article's lines
import TrackerDataKit
import UserScripts

// The scripts as the build rendered them, with a fresh secret in place of the marker at each
// launch; accept only messages that carry `scripts.secret`. Compile TrackerlessGenerated.ruleLists
// with WKContentRuleListStore, each under its identifier (TrackerlessGenerated.ruleListIdentifiers).
let scripts = try RenderedScripts(
    blockingScript: TrackerlessGenerated.blockingScript,
    inferenceScript: TrackerlessGenerated.inferenceScript,
    manifest: TrackerlessGenerated.manifest
).withSecret(.random())
let blockingScript = scripts.blocking.source      // page world
let inferenceScript = scripts.inference.source    // isolated world "trackerless"
let resolver = TrackerResolver(
    trackerData: try TrackerData(parsing: Array(TrackerlessGenerated.trackerData.utf8), file: "tds.json"),
    surrogates: Surrogates(parsing: TrackerlessGenerated.surrogates, file: "surrogates.txt"))

print("blocking.js: \(blockingScript.utf8.count) bytes")
print("inference.js: \(inferenceScript.utf8.count) bytes")
print("rules.json: \(TrackerlessGenerated.ruleList.utf8.count) bytes")
// The tracker-cookie lists, compiled beside the rule lists (none where the configuration turns cookie protection off).
print("cookie lists: \(TrackerlessGenerated.cookieLists.count), \(TrackerlessGenerated.cookieLists.map(\.utf8.count).reduce(0, +)) bytes")
print("set identity: \(TrackerlessGenerated.setIdentity)")
print("rule list identifiers: \(TrackerlessGenerated.ruleListIdentifiers.joined(separator: ", "))")
print("handler: \(scripts.settings.handler)")
let markerRendered = [TrackerlessGenerated.blockingScript, TrackerlessGenerated.inferenceScript]
    .allSatisfy { $0.contains(ScriptSecret.marker.value) }
let markerLeft = [blockingScript, inferenceScript].contains { $0.contains(ScriptSecret.marker.value) }
let secretIn = [blockingScript, inferenceScript].allSatisfy { $0.contains(scripts.secret.value) }
print("secret: " + (markerRendered && !markerLeft && secretIn ? "a fresh one in both scripts" : "not in place of the marker"))

do {
    let privacyConfiguration = try TrackerlessGenerated.privacyConfiguration.map { text throws in
        try PrivacyConfiguration(parsing: Array(text.utf8), file: "privacy-config.json")
    }
    let userAllowlist = try TrackerlessGenerated.userAllowlist.map { text throws in
        try UserAllowlist(parsing: Array(text.utf8), file: "allowlist.json")
    }
    let configured = TrackerResolver(
        trackerData: resolver.trackerData,
        surrogates: Surrogates(parsing: TrackerlessGenerated.surrogates, file: "surrogates.txt"),
        privacyConfiguration: privacyConfiguration,
        userAllowlist: userAllowlist ?? UserAllowlist())
    let requests: [(url: String, type: RequestType)] = [
        ("https://tracker.example/pixel.gif", .image),
        ("https://tracker.example/analytics.js", .script),
        ("https://ads.example/pixel?id=1", .image),
        ("https://cdn.news.example/app.js", .script),
    ]
    for request in requests {
        let decision = configured.decision(forRequestURL: request.url, topURL: "https://news.example/", type: request.type)
        let action = decision?.action.map { "\($0)" } ?? "none"
        print("\(request.url) on news.example: \(action) (\(decision?.reason.rawValue ?? "invalid URL"))")
    }
    // tds.json blocks tracker.example by default: if the resolver does not, the data is not ours.
    let check = configured.decision(forRequestURL: "https://tracker.example/pixel.gif", topURL: "https://news.example/", type: .image)
    guard check?.action == .block else {
        print("HostApp: https://tracker.example/pixel.gif is not blocked on news.example")
        exit(1)
    }
} catch {
    print("HostApp: \(error)")
    exit(1)
}
