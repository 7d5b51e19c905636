// swift-tools-version:6.0
import Foundation
import PackageDescription

// The root package, two directories up; SwiftPM names a path dependency by its folder, lowercased.
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let trackerless = root.lastPathComponent.lowercased()

let package = Package(
    name: "TrackerlessWebKitGTK",
    products: [
        .library(name: "TrackerlessWebKitGTK", targets: ["TrackerlessWebKitGTK"]),
        .executable(name: "trackerless-browser", targets: ["TrackerlessBrowser"]),
        .executable(name: "trackerless-browser-benchmarks", targets: ["TrackerlessBrowserBenchmarks"]),
        // The web-process extension of `trackerless-browser --mode engine` (and of the headers in
        // every mode): dlopen'ed by WebKit in each web process.
        .library(name: "TrackerlessWebProcessExtension", type: .dynamic, targets: ["TrackerlessWebProcessExtension"]),
    ],
    dependencies: [.package(path: "../..")],
    targets: [
        .systemLibrary(name: "CWebKitGTK", pkgConfig: "webkitgtk-6.0", providers: [.apt(["libwebkitgtk-6.0-dev"])]),
        // The extension umbrella header cannot be included with the UI one (`#error`): a module of its own.
        .systemLibrary(
            name: "CWebKitWebProcessExtension", pkgConfig: "webkitgtk-web-process-extension-6.0",
            providers: [.apt(["libwebkitgtk-6.0-dev"])]),
        // What the extension decides for a request, without WebKit: the type read from its headers,
        // the engine's answer, the Sec-GPC and Referer headers.
        .target(
            name: "RequestHookKit",
            dependencies: [
                .product(name: "RuleEngineKit", package: trackerless),
                .product(name: "ContentRuleList", package: trackerless),
                .product(name: "NavigationProtections", package: trackerless),
                .product(name: "TrackerDataKit", package: trackerless),
                .product(name: "TrackerlessCore", package: trackerless),
            ]
        ),
        .target(name: "TrackerlessWebProcessExtension", dependencies: ["CWebKitWebProcessExtension", "RequestHookKit"]),
        .target(
            name: "TrackerlessWebKitGTK",
            dependencies: [
                "CWebKitGTK", "RequestHookKit",
                .product(name: "ContentRuleList", package: trackerless),
                .product(name: "TrackerlessRuntime", package: trackerless),
                .product(name: "TrackerlessCore", package: trackerless),
                .product(name: "PrivacyStatsKit", package: trackerless),
                .product(name: "TrackerDataKit", package: trackerless),
                .product(name: "NavigationProtections", package: trackerless),
            ]
        ),
        .executableTarget(
            name: "TrackerlessBrowser",
            dependencies: [
                "CWebKitGTK", "TrackerlessWebKitGTK", "RequestHookKit",
                .product(name: "TrackerlessRuntime", package: trackerless),
                .product(name: "PrivacyStatsKit", package: trackerless),
                .product(name: "TrackerlessCore", package: trackerless),
            ]
        ),
        // The page-load cost of the scripts in a real web view (BENCHMARKS.md).
        .executableTarget(
            name: "TrackerlessBrowserBenchmarks",
            dependencies: [
                "CWebKitGTK", "TrackerlessWebKitGTK", "RequestHookKit",
                .product(name: "TrackerlessRuntime", package: trackerless),
                .product(name: "TrackerlessCore", package: trackerless),
            ]
        ),
        .testTarget(
            name: "TrackerlessWebKitGTKTests",
            dependencies: [
                "TrackerlessBrowser", "RequestHookKit", "TrackerlessWebKitGTK", .product(name: "TrackerDataKit", package: trackerless),
                .product(name: "NavigationProtections", package: trackerless),
                .product(name: "ContentRuleList", package: trackerless),
                .product(name: "RuleEngineKit", package: trackerless),
                .product(name: "RuleBuilder", package: trackerless),
                .product(name: "TrackerlessCore", package: trackerless),
            ],
            exclude: []
        ),
    ]
)

// As in the root package: imports are internal unless written `public import` (InternalImportsTests).
for target in package.targets where target.type != .system {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("InternalImportsByDefault")]
}
