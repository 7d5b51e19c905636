// swift-tools-version:6.0
import PackageDescription

// libFuzzer targets for every decoder of untrusted or downloaded bytes. A package of its own,
// so that the root package's build and tests never see the sanitizers: build it with
// `swift build --package-path Fuzz -c release --sanitize=fuzzer --sanitize=address`, or run
// `Scripts/fuzz.sh` (see README.md).

/// One fuzzer: an executable whose `LLVMFuzzerTestOneInput` feeds one decoder.
func fuzzer(_ name: String, _ dependencies: [Target.Dependency]) -> Target {
    .executableTarget(name: name, dependencies: dependencies + ["FuzzSupport"])
}

/// A library of the root package.
func product(_ name: String) -> Target.Dependency {
    .product(name: name, package: "Trackerless")
}

let package = Package(
    name: "TrackerlessFuzz",
    dependencies: [.package(name: "Trackerless", path: "..")],
    targets: [
        // What every fuzzer shares: the input as bytes, invariant checks that trap with a message.
        .target(name: "FuzzSupport", dependencies: [product("ContentRuleList"), product("TrackerDataKit")]),
        fuzzer("ScriptMessageFuzzer", [product("PrivacyStatsKit"), product("TrackerDataKit"), product("TrackerlessCore")]),
        fuzzer("TrackerDataFuzzer", [product("TrackerDataKit"), product("RuleBuilder"), product("ContentRuleList")]),
        fuzzer("PrivacyConfigurationFuzzer", [product("TrackerDataKit"), product("TrackerlessCore")]),
        fuzzer("UserAllowlistFuzzer", [product("TrackerDataKit")]),
        fuzzer("SurrogatesFuzzer", [product("TrackerDataKit"), product("UserScripts")]),
        fuzzer("RuleListFuzzer", [product("ContentRuleList"), product("RuleEngineKit")]),
        fuzzer("URLFilterFuzzer", [product("ContentRuleList")]),
        fuzzer("CompiledEngineFuzzer", [product("ContentRuleList"), product("RuleEngineKit"), product("TrackerlessCore")]),
        fuzzer("DisconnectListsFuzzer", [product("DisconnectLists"), product("ContentRuleList")]),
        fuzzer("PrefilterFuzzer", [product("URLPrefilter")]),
        fuzzer("HTTPSUpgradeFuzzer", [product("URLPrefilter")]),
        fuzzer("DownloadsFuzzer", [product("TrackerlessRuntime"), product("TrackerDataKit")]),
        fuzzer("NavigationDataFuzzer", [product("NavigationProtections"), product("TrackerDataKit")]),
        fuzzer("PageInputsFuzzer", [product("NavigationProtections"), product("TrackerDataKit"), product("UserScripts")]),
        // Compiles the `trackerless` tool's request reader (links to two of its files), which is
        // internal to the executable.
        fuzzer("RequestLinesFuzzer", [product("ContentRuleList"), product("RuleEngineKit"), product("TrackerDataKit"), product("TrackerlessCore")]),
    ],
    swiftLanguageModes: [.v6]
)

// As in the root package: imports are internal unless written `public import` (InternalImportsTests).
for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("InternalImportsByDefault")]
}
