// swift-tools-version:6.0
import Foundation
import PackageDescription

// Trackerless, required by path: this example lives inside its repository.
let trackerlessPath = "../.."
// SwiftPM names a package required by path after its folder ("Trackerless", "main", whatever the
// checkout is called), and products and plugins are named by that identity.
let trackerless = URL(fileURLWithPath: Context.packageDirectory)
    .appendingPathComponent(trackerlessPath).standardizedFileURL.lastPathComponent

let package = Package(
    name: "HostApp",
    dependencies: [
        .package(path: trackerlessPath),
    ],
    targets: [
        // tds.json and trackerless.json in Sources/HostApp are the plugin's inputs; it compiles
        // TrackerlessGenerated.swift (the rendered scripts and rule list) into this target.
        .executableTarget(
            name: "HostApp",
            dependencies: [
                .product(name: "TrackerDataKit", package: trackerless),
                .product(name: "TrackerlessCore", package: trackerless),
                .product(name: "UserScripts", package: trackerless),
            ],
            plugins: [
                .plugin(name: "TrackerlessScriptsPlugin", package: trackerless),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// As in the root package: imports are internal unless written `public import` (InternalImportsTests).
for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("InternalImportsByDefault")]
}
