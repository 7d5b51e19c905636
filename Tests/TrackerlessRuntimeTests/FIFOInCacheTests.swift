import Foundation
import Testing
import TrackerlessRuntime

/// A FIFO where the cache keeps a file (a restore, a hostile program) never hangs the launch:
/// the file is refused at once, the runtime protects, and says what it refused.
@Suite("Runtime: a FIFO in the cache never hangs the launch")
struct FIFOInCacheTests {
    /// The cache files replaced by a FIFO; "set file" is the first file of the cached set's generation.
    static let files = ["set file", "protection-off.json", "privacy-totals", "privacy-totals.journal"]

    @Test("a cache file replaced by a FIFO: the runtime starts and protects, and a file it could not read is named", arguments: files)
    func fifo(file: String) throws {
        let directory = try RuntimeFixture.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let built = try ProtectionSet.load(RuntimeFixture.inputs, cacheDirectory: directory)
        var path = directory + "/" + file
        if file == "set file" {
            let generation = URL(fileURLWithPath: directory + "/set").resolvingSymlinksInPath().path
            let name = try #require(try FileManager.default.contentsOfDirectory(atPath: generation).sorted().first)
            path = generation + "/" + name
            try FileManager.default.removeItem(atPath: path)
        }
        try #require(mkfifo(path, 0o600) == 0)

        // On its own thread, so that a hang is a failure of this test, released by opening the
        // FIFO's other end, and not a run that never ends.
        let launched = DispatchSemaphore(value: 0)
        let result = LaunchResult()
        Thread {
            result.set(Result { () throws(ProtectionError) in try ProtectionRuntime(inputs: RuntimeFixture.inputs, cacheDirectory: directory) })
            launched.signal()
        }.start()
        if launched.wait(timeout: .now() + 120) == .timedOut {
            let release = open(path, O_RDWR | O_NONBLOCK)
            launched.wait()
            close(release)
            Issue.record("the launch waited for a writer or reader of the FIFO \(path)")
        }
        let runtime = try #require(try result.get()?.get())
        #expect(runtime.currentSet.identity == built.identity)
        #expect(runtime.currentSet.engine.decision(for: FullDiskRuntimeTests.tracker).isBlocked)
        if file != "set file" {
            let error = try #require(runtime.lastStorageError)
            #expect("\(error)".contains(path), "\(error)")
        }
    }

    /// The launch's outcome, handed from its thread to the test.
    private final class LaunchResult: @unchecked Sendable {
        private let lock = NSLock()
        private var value: Result<ProtectionRuntime, ProtectionError>?

        func set(_ result: Result<ProtectionRuntime, ProtectionError>) {
            lock.withLock { value = result }
        }

        func get() -> Result<ProtectionRuntime, ProtectionError>? {
            lock.withLock { value }
        }
    }
}
