// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "TrackerlessWebKitGTK",
    targets: [
        .systemLibrary(name: "CWebKitGTK", pkgConfig: "webkitgtk-6.0", providers: [.apt(["libwebkitgtk-6.0-dev"])]),
        .target(name: "TrackerlessWebKitGTK", dependencies: ["CWebKitGTK"]),
        .executableTarget(name: "Probe", dependencies: ["CWebKitGTK", "TrackerlessWebKitGTK"]),
    ]
)
