// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Trackerless",
    // The oldest Apple platforms the SDK supports: Safari 15's WebKit and later (iOS 15, macOS 12
    // Monterey; Mac Catalyst follows iOS). SwiftPM cannot leave a platform out, only raise its
    // minimum: tvOS and watchOS have no WebKit (TrackerlessWebKit is empty there, behind
    // `#if canImport(WebKit)`), but the other library targets build there, so they get the same
    // 2021 releases rather than SwiftPM's defaults (tvOS 12, watchOS 4, older than Swift
    // concurrency). visionOS 1.0 is its first release and has WebKit.
    // Scripts/check-apple-availability.sh checks the sources against these versions.
    platforms: [.macOS(.v12), .iOS(.v15), .tvOS(.v15), .watchOS(.v8), .visionOS(.v1)],
    products: [
        .library(name: "TrackerlessCore", targets: ["TrackerlessCore"]),
        .library(name: "ContentRuleList", targets: ["ContentRuleList"]),
        .library(name: "TrackerDataKit", targets: ["TrackerDataKit"]),
        .library(name: "RuleBuilder", targets: ["RuleBuilder"]),
        .library(name: "RuleEngineKit", targets: ["RuleEngineKit"]),
        .library(name: "URLPrefilter", targets: ["URLPrefilter"]),
        .library(name: "DisconnectLists", targets: ["DisconnectLists"]),
        .library(name: "UserScripts", targets: ["UserScripts"]),
        .library(name: "PrivacyStatsKit", targets: ["PrivacyStatsKit"]),
        .library(name: "NavigationProtections", targets: ["NavigationProtections"]),
        .library(name: "TrackerlessRuntime", targets: ["TrackerlessRuntime"]),
        .library(name: "TrackerlessWebKit", targets: ["TrackerlessWebKit"]),
        // The C API (Sources/TrackerlessC/include/trackerless.h) for hosts that are not Swift.
        .library(name: "TrackerlessC", type: .dynamic, targets: ["TrackerlessC"]),
        .executable(name: "trackerless", targets: ["TrackerlessCLI"]),
        .plugin(name: "TrackerlessScriptsPlugin", targets: ["TrackerlessScriptsPlugin"]),
    ],
    targets: [
        // JSON with paths, atomic files, URLs and registrable domains: what every stage needs.
        .target(name: "TrackerlessCore"),
        // WebKit content-blocker rule lists: model, parser/validator, encoder, reference evaluator.
        .target(name: "ContentRuleList", dependencies: ["TrackerlessCore"]),
        // Tracker Radar (tds.json), the privacy configuration and the tracker resolver.
        .target(name: "TrackerDataKit", dependencies: ["TrackerlessCore"]),
        // Rule lists compiled into a fast matcher with WebKit's semantics, and its file format.
        .target(name: "RuleEngineKit", dependencies: ["ContentRuleList", "TrackerlessCore"]),
        // Disconnect's lists (Firefox's tracking protection) -> Firefox's WebKit rule lists and categories.
        .target(name: "DisconnectLists", dependencies: ["ContentRuleList", "TrackerlessCore"]),
        // Bloom filters: Apple's URL-filter prefilter with its PIR server inputs, DuckDuckGo's HTTPS upgrades.
        .target(name: "URLPrefilter", dependencies: ["TrackerDataKit", "TrackerlessCore"]),
        // The injected JavaScript: blocking and inference scripts, surrogates, bridges, renderer.
        .target(name: "UserScripts", dependencies: ["TrackerDataKit", "TrackerlessCore"]),
        // Scripts' messages -> privacy-dashboard statistics per page, per site and over time.
        .target(name: "PrivacyStatsKit", dependencies: ["TrackerDataKit", "TrackerlessCore"]),
        // The privacy configuration's other protections: tracking parameters, AMP links, GPC, referrer trimming.
        .target(name: "NavigationProtections", dependencies: ["TrackerDataKit", "URLPrefilter", "TrackerlessCore"]),
        // Tracker data + privacy configuration -> WebKit rule lists with the resolver's meaning.
        .target(name: "RuleBuilder", dependencies: ["TrackerDataKit", "ContentRuleList"]),
        // What a host embeds: one protection set (rule lists, scripts, resolver, engine) built or
        // loaded from a cache, updated atomically, site toggles, and the statistics of its tabs.
        .target(
            name: "TrackerlessRuntime",
            dependencies: [
                "TrackerDataKit", "RuleBuilder", "ContentRuleList", "RuleEngineKit", "UserScripts", "PrivacyStatsKit",
                "NavigationProtections", "URLPrefilter", "TrackerlessCore",
            ]
        ),
        // The runtime on Apple's WebKit (WKUserContentController, WKContentRuleListStore); every
        // source is inside `#if canImport(WebKit)`, so on Linux the module is empty.
        .target(name: "TrackerlessWebKit", dependencies: ["ContentRuleList", "TrackerlessRuntime", "PrivacyStatsKit"]),
        // The C API: @_cdecl functions over opaque handles; the header is include/trackerless.h.
        .target(
            name: "TrackerlessC",
            dependencies: [
                "RuleEngineKit", "ContentRuleList", "TrackerDataKit", "UserScripts", "PrivacyStatsKit", "TrackerlessRuntime",
                "TrackerlessCore",
            ],
            exclude: ["include"]),
        .executableTarget(
            name: "TrackerlessCLI",
            dependencies: [
                "RuleBuilder", "RuleEngineKit", "ContentRuleList", "TrackerDataKit", "TrackerlessCore", "URLPrefilter", "DisconnectLists",
                "UserScripts", "PrivacyStatsKit", "NavigationProtections",
                // `trackerless fetch` downloads with the runtime's updater rules (InputDownloader, DownloadStore).
                "TrackerlessRuntime",
            ]
        ),
        // Renders a target's tds.json into its scripts and rule list at build time (`trackerless scripts`).
        .plugin(name: "TrackerlessScriptsPlugin", capability: .buildTool(), dependencies: ["TrackerlessCLI"]),
        .executableTarget(
            name: "TrackerlessBenchmarks",
            dependencies: [
                "RuleBuilder", "RuleEngineKit", "ContentRuleList", "TrackerDataKit", "TrackerlessCore", "DisconnectLists", "URLPrefilter",
                "UserScripts", "PrivacyStatsKit", "TrackerlessRuntime", "NavigationProtections",
            ]
        ),
        // Shared test data (../shared/data) and the reference-test loaders every test target uses.
        .target(
            name: "TrackerlessTestSupport", dependencies: ["TrackerDataKit", "TrackerlessCore"],
            path: "Tests/TestSupport"
        ),
        .testTarget(name: "TrackerlessCoreTests", dependencies: ["TrackerlessCore", "TrackerlessTestSupport"]),
        .testTarget(name: "ContentRuleListTests", dependencies: ["ContentRuleList", "TrackerlessTestSupport"]),
        .testTarget(name: "TrackerDataTests", dependencies: ["TrackerDataKit", "TrackerlessTestSupport"]),
        .testTarget(name: "RuleBuilderTests", dependencies: ["RuleBuilder", "TrackerlessTestSupport"]),
        .testTarget(name: "UserScriptsTests", dependencies: ["UserScripts", "TrackerDataKit", "TrackerlessCore", "TrackerlessTestSupport"]),
        .testTarget(
            name: "PrivacyStatsTests", dependencies: ["PrivacyStatsKit", "TrackerDataKit", "TrackerlessCore", "TrackerlessTestSupport"],
            exclude: ["screenshot"]
        ),
        .testTarget(name: "NavigationProtectionsTests", dependencies: ["NavigationProtections", "TrackerDataKit", "TrackerlessCore", "TrackerlessTestSupport"]),
        // Compiles the C hosts of Tests/CAPITests/c against the header and runs them; compiles the
        // Android guide's JNI glue and runs it from a JVM (Tests/CAPITests/jni) when a JDK is there.
        .testTarget(
            name: "CAPITests",
            dependencies: [
                "RuleBuilder", "RuleEngineKit", "ContentRuleList", "TrackerDataKit", "PrivacyStatsKit", "TrackerlessCore",
                "TrackerlessRuntime", "TrackerlessTestSupport",
            ],
            exclude: ["c", "jni"]
        ),
        .testTarget(
            name: "TrackerlessRuntimeTests",
            dependencies: [
                "TrackerlessRuntime", "PrivacyStatsKit", "TrackerDataKit", "UserScripts", "NavigationProtections", "TrackerlessCore", "RuleEngineKit", "ContentRuleList",
                "TrackerlessTestSupport",
            ]
        ),
        .testTarget(name: "URLPrefilterTests", dependencies: ["URLPrefilter", "TrackerlessTestSupport"]),
        .testTarget(
            name: "DisconnectListsTests",
            dependencies: ["DisconnectLists", "ContentRuleList", "TrackerlessCore", "TrackerlessTestSupport"]
        ),
        .testTarget(
            name: "RuleEngineTests",
            dependencies: ["RuleEngineKit", "RuleBuilder", "ContentRuleList", "TrackerDataKit", "TrackerlessCore", "TrackerlessTestSupport"]
        ),
        // Every ```swift block of README.md and the DocC articles, compiled as written
        // (generated by Scripts/generate-snippet-tests.py; a test fails when they are stale).
        .testTarget(
            name: "SnippetTests",
            dependencies: [
                "TrackerlessCore", "ContentRuleList", "TrackerDataKit", "RuleBuilder", "RuleEngineKit", "URLPrefilter",
                "DisconnectLists", "UserScripts", "PrivacyStatsKit", "TrackerlessRuntime", "TrackerlessTestSupport",
            ]
        ),
        // Runs the built `trackerless` executable, so it depends on the product being built.
        .testTarget(name: "TrackerlessCLITests", dependencies: ["TrackerlessCLI", "TrackerlessRuntime", "TrackerlessTestSupport"]),
        .testTarget(
            name: "ReferenceTests",
            dependencies: ["RuleBuilder", "ContentRuleList", "TrackerDataKit", "TrackerlessTestSupport"]
        ),
        .testTarget(
            name: "WebKitTests",
            dependencies: [
                "RuleBuilder", "RuleEngineKit", "ContentRuleList", "TrackerDataKit", "TrackerlessTestSupport", "DisconnectLists",
                "UserScripts", "PrivacyStatsKit",
            ],
            exclude: ["harness"]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// Imports are internal unless written `public import` (or `package import`): Foundation and each
// dependency stay out of a module's interface unless one of its public declarations needs them.
// A plugin target takes no Swift settings. InternalImportsTests fails when a target lacks it.
for target in package.targets where target.type != .plugin {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("InternalImportsByDefault")]
}
