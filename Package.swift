// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Trackerless",
    products: [
        .library(name: "TrackerlessCore", targets: ["TrackerlessCore"]),
        .library(name: "ContentRuleList", targets: ["ContentRuleList"]),
        .library(name: "TrackerData", targets: ["TrackerData"]),
        .library(name: "RuleBuilder", targets: ["RuleBuilder"]),
        .library(name: "RuleEngine", targets: ["RuleEngine"]),
        .library(name: "URLPrefilter", targets: ["URLPrefilter"]),
        .library(name: "DisconnectLists", targets: ["DisconnectLists"]),
        .library(name: "UserScripts", targets: ["UserScripts"]),
        .library(name: "PrivacyStats", targets: ["PrivacyStats"]),
        .executable(name: "trackerless", targets: ["TrackerlessCLI"]),
        .plugin(name: "TrackerlessScriptsPlugin", targets: ["TrackerlessScriptsPlugin"]),
    ],
    targets: [
        // JSON with paths, atomic files, URLs and registrable domains: what every stage needs.
        .target(name: "TrackerlessCore"),
        // WebKit content-blocker rule lists: model, parser/validator, encoder, reference evaluator.
        .target(name: "ContentRuleList", dependencies: ["TrackerlessCore"]),
        // Tracker Radar (tds.json), the privacy configuration and the tracker resolver.
        .target(name: "TrackerData", dependencies: ["TrackerlessCore"]),
        // Rule lists compiled into a fast matcher with WebKit's semantics, and its file format.
        .target(name: "RuleEngine", dependencies: ["ContentRuleList", "TrackerlessCore"]),
        // Disconnect's lists (Firefox's tracking protection) -> Firefox's WebKit rule lists and categories.
        .target(name: "DisconnectLists", dependencies: ["ContentRuleList", "TrackerlessCore"]),
        // Bloom filters: Apple's URL-filter prefilter with its PIR server inputs, DuckDuckGo's HTTPS upgrades.
        .target(name: "URLPrefilter", dependencies: ["TrackerData", "TrackerlessCore"]),
        // The injected JavaScript: blocking and inference scripts, surrogates, bridges, renderer.
        .target(name: "UserScripts", dependencies: ["TrackerData", "TrackerlessCore"]),
        // Scripts' messages -> privacy-dashboard statistics per page, per site and over time.
        .target(name: "PrivacyStats", dependencies: ["TrackerData", "TrackerlessCore"]),
        // Tracker data + privacy configuration -> WebKit rule lists with the resolver's meaning.
        .target(name: "RuleBuilder", dependencies: ["TrackerData", "ContentRuleList"]),
        .executableTarget(
            name: "TrackerlessCLI",
            dependencies: [
                "RuleBuilder", "RuleEngine", "ContentRuleList", "TrackerData", "TrackerlessCore", "URLPrefilter", "DisconnectLists",
                "UserScripts", "PrivacyStats",
            ]
        ),
        // Renders a target's tds.json into its scripts and rule list at build time (`trackerless scripts`).
        .plugin(name: "TrackerlessScriptsPlugin", capability: .buildTool(), dependencies: ["TrackerlessCLI"]),
        .executableTarget(
            name: "TrackerlessBenchmarks",
            dependencies: [
                "RuleBuilder", "RuleEngine", "ContentRuleList", "TrackerData", "TrackerlessCore", "DisconnectLists", "URLPrefilter",
                "UserScripts", "PrivacyStats",
            ]
        ),
        // Shared test data (../shared/data) and the reference-test loaders every test target uses.
        .target(
            name: "TrackerlessTestSupport", dependencies: ["TrackerData", "TrackerlessCore"],
            path: "Tests/TestSupport"
        ),
        .testTarget(name: "TrackerlessCoreTests", dependencies: ["TrackerlessCore", "TrackerlessTestSupport"]),
        .testTarget(name: "ContentRuleListTests", dependencies: ["ContentRuleList", "TrackerlessTestSupport"]),
        .testTarget(name: "TrackerDataTests", dependencies: ["TrackerData", "TrackerlessTestSupport"]),
        .testTarget(name: "RuleBuilderTests", dependencies: ["RuleBuilder", "TrackerlessTestSupport"]),
        .testTarget(name: "UserScriptsTests", dependencies: ["UserScripts", "TrackerData", "TrackerlessCore", "TrackerlessTestSupport"]),
        .testTarget(
            name: "PrivacyStatsTests", dependencies: ["PrivacyStats", "TrackerData", "TrackerlessCore", "TrackerlessTestSupport"],
            exclude: ["screenshot"]
        ),
        .testTarget(name: "URLPrefilterTests", dependencies: ["URLPrefilter", "TrackerlessTestSupport"]),
        .testTarget(
            name: "DisconnectListsTests",
            dependencies: ["DisconnectLists", "ContentRuleList", "TrackerlessCore", "TrackerlessTestSupport"]
        ),
        .testTarget(
            name: "RuleEngineTests",
            dependencies: ["RuleEngine", "RuleBuilder", "ContentRuleList", "TrackerData", "TrackerlessCore", "TrackerlessTestSupport"]
        ),
        // Runs the built `trackerless` executable, so it depends on the product being built.
        .testTarget(name: "TrackerlessCLITests", dependencies: ["TrackerlessCLI"]),
        .testTarget(
            name: "ReferenceTests",
            dependencies: ["RuleBuilder", "ContentRuleList", "TrackerData", "TrackerlessTestSupport"]
        ),
        .testTarget(
            name: "WebKitTests",
            dependencies: [
                "RuleBuilder", "RuleEngine", "ContentRuleList", "TrackerData", "TrackerlessTestSupport", "DisconnectLists",
                "UserScripts", "PrivacyStats",
            ],
            exclude: ["harness"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
