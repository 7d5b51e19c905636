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
    ],
    dependencies: [.package(path: "../..")],
    targets: [
        .systemLibrary(name: "CWebKitGTK", pkgConfig: "webkitgtk-6.0", providers: [.apt(["libwebkitgtk-6.0-dev"])]),
        .target(
            name: "TrackerlessWebKitGTK",
            dependencies: [
                "CWebKitGTK",
                .product(name: "TrackerlessRuntime", package: trackerless),
                .product(name: "PrivacyStatsKit", package: trackerless),
                .product(name: "TrackerDataKit", package: trackerless),
                .product(name: "NavigationProtections", package: trackerless),
            ]
        ),
        .executableTarget(
            name: "TrackerlessBrowser",
            dependencies: [
                "CWebKitGTK", "TrackerlessWebKitGTK",
                .product(name: "TrackerlessRuntime", package: trackerless),
                .product(name: "PrivacyStatsKit", package: trackerless),
                .product(name: "TrackerlessCore", package: trackerless),
            ]
        ),
        // The page-load cost of the scripts in a real web view (BENCHMARKS.md).
        .executableTarget(
            name: "TrackerlessBrowserBenchmarks",
            dependencies: [
                "CWebKitGTK", "TrackerlessWebKitGTK",
                .product(name: "TrackerlessRuntime", package: trackerless),
                .product(name: "TrackerlessCore", package: trackerless),
            ]
        ),
        .testTarget(
            name: "TrackerlessWebKitGTKTests",
            dependencies: ["TrackerlessBrowser", .product(name: "TrackerDataKit", package: trackerless)],
            exclude: []
        ),
    ]
)
