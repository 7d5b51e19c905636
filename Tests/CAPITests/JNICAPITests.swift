import Foundation
import Testing
import TrackerDataKit
import TrackerlessTestSupport

/// The Android guide's JNI glue (`Examples/Android/jni/trackerless_jni.c`) compiled against a
/// JDK's `jni.h` and the header, linked with the library, and called from a JVM through the
/// native methods the guide's Kotlin object declares (`jni/org/trackerless/TrackerlessNative.java`
/// declares the same ones). Skipped when no JDK (javac, java, jni.h) is installed.
extension CAPITests {
    /// The JDK's home: the first of /usr/lib/jvm with `include/jni.h` and `bin/javac`.
    static let javaHome: URL? = {
        let root = URL(fileURLWithPath: "/usr/lib/jvm")
        let homes = (try? FileManager.default.contentsOfDirectory(atPath: root.path))?.sorted() ?? []
        return homes.map { root.appendingPathComponent($0) }.first { home in
            FileManager.default.fileExists(atPath: home.appendingPathComponent("include/jni.h").path)
                && FileManager.default.isExecutableFile(atPath: home.appendingPathComponent("bin/javac").path)
        }
    }()

    @Test("the Android guide's JNI glue, called from a JVM: a runtime from a file, a tracker blocked and a first-party script allowed, a bad type refused, scripts for the android bridge, a forged message rejected, a load counted, a bad update thrown as IllegalStateException naming the tds",
          .enabled(if: javaHome != nil, "no JDK with jni.h under /usr/lib/jvm"))
    func jniGlue() throws {
        let home = try #require(Self.javaHome)
        let clang = try #require(ChildProcess.executable(named: "clang"), "clang is not on PATH")
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let library = Self.buildDirectory.appendingPathComponent("libTrackerlessC.so")
        try #require(FileManager.default.fileExists(atPath: library.path), "build with swift build --build-tests")

        let glue = SharedData.packageRoot.appendingPathComponent("Examples/Android/jni/trackerless_jni.c")
        let compiled = try ChildProcess.run(clang, [
            "-std=c11", "-Wall", "-Wextra", "-Werror", "-shared", "-fPIC", "-I", Self.header.path,
            "-I", home.appendingPathComponent("include").path, "-I", home.appendingPathComponent("include/linux").path, glue.path,
            "-L", Self.buildDirectory.path, "-lTrackerlessC", "-Wl,-rpath," + Self.buildDirectory.path,
            "-o", directory.appendingPathComponent("libtrackerless_jni.so").path,
        ], logs: directory)
        try #require(compiled.status == 0, "clang: \(compiled.output)")

        let sources = SharedData.packageRoot.appendingPathComponent("Tests/CAPITests/jni/org/trackerless")
        let classes = directory.appendingPathComponent("classes")
        let javac = try ChildProcess.run(home.appendingPathComponent("bin/javac"), [
            "-d", classes.path, sources.appendingPathComponent("TrackerlessNative.java").path,
            sources.appendingPathComponent("JNIHost.java").path,
        ], logs: directory)
        try #require(javac.status == 0, "javac: \(javac.output)")

        let tds = directory.appendingPathComponent("tds.json")
        try Data(TrackerData.sampleDocument.utf8).write(to: tds)
        let run = try ChildProcess.run(home.appendingPathComponent("bin/java"), [
            "-Djava.library.path=" + directory.path, "-cp", classes.path, "org.trackerless.JNIHost", tds.path,
            directory.appendingPathComponent("cache").path, "https://social.example/widget.js",
        ], logs: directory)
        #expect(run.status == 0, "\(run.output.suffix(2000))")
        let lines = run.output.split(separator: "\n").map(String.init)
        // TL_DECISION_CHECKED | TL_DECISION_BLOCKED, then TL_DECISION_CHECKED alone.
        #expect(lines.contains("blocked: 3"), "\(lines.prefix(4))")
        #expect(lines.contains("allowed: 1"), "\(lines.prefix(4))")
        #expect(lines.contains("refused: -1"), "\(lines.prefix(4))")
        #expect(lines.contains("scripts: true"))
        #expect(lines.contains { $0.hasPrefix("navigation: {\"protected\":true,") })
        #expect(lines.contains("forged message accepted: false"))
        let snapshot = try Self.object("snapshot", in: lines)
        #expect((snapshot["trackers"] as? [String: Any])?["blocked"] as? Int == 1, "\(snapshot)")
        #expect(lines.contains { $0.hasPrefix("bad update: tds: ") && $0.contains("missing-tds.json") }, "\(lines.suffix(3))")
        #expect(lines.contains("after: 3"))
    }
}
