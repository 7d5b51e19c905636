import Foundation
import Testing
import TrackerDataKit
import TrackerlessTestSupport

/// The README's C snippet (the ```c block of its quick start "An engine in a request hook"), compiled as
/// written inside a `main` against the header, linked with the library and run where `tds.json`
/// is the sample blocklist: it must build a runtime and decide a load without an error.
extension CAPITests {
    @Test("the README's C snippet compiles against the header and runs")
    func readmeSnippet() throws {
        let readme = try String(contentsOf: SharedData.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let blocks = readme.components(separatedBy: "```c\n").dropFirst().map { $0.components(separatedBy: "\n```")[0] }
        let snippet = try #require(blocks.first { $0.contains("tl_runtime_new") }, "no ```c block with tl_runtime_new in README.md")
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = directory.appendingPathComponent("readme_snippet.c")
        let program = """
            #include <stdio.h>
            #include "trackerless.h"

            int main(void) {
            \(snippet)
                return error == NULL && runtime != NULL && engine != NULL && (flags & TL_DECISION_CHECKED) ? 0 : 1;
            }

            """
        try Data(program.utf8).write(to: source)
        let binary = try Self.compile(source: source).get()
        try Data(TrackerData.sampleDocument.utf8).write(to: directory.appendingPathComponent("tds.json"))
        let run = try ChildProcess.run(URL(fileURLWithPath: "/bin/sh"), ["-c", "cd '\(directory.path)' && '\(binary.path)'"], logs: directory)
        #expect(run.status == 0, "\(run.output)")
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("cache").path), "no cache directory written")
    }
}
