import Foundation
import PrivacyStatsKit
import Testing
import TrackerlessRuntime

/// One runtime per cache directory, decided before anything is read or written; statistics
/// handles that outlive their runtime do not hold the cache.
@Suite("Runtime: one runtime per cache directory")
struct CacheLockTests {
    /// The cache directory's entries (names, and where each link points).
    static func listing(_ directory: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory).sorted().map { name in
            let target = try? FileManager.default.destinationOfSymbolicLink(atPath: directory + "/" + name)
            return target.map { "\(name) -> \($0)" } ?? name
        }
    }

    @Test("a second runtime with other inputs is refused before it builds: the running runtime's cached set and every file stay")
    func secondRuntimeRefusedFirst() throws {
        let directory = try RuntimeFixture.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = try ProtectionRuntime(inputs: RuntimeFixture.inputs, cacheDirectory: directory)
        let before = try Self.listing(directory)
        let identity = first.currentSet.identity
        let error = try #require(throws: ProtectionError.self) {
            try ProtectionRuntime(inputs: RuntimeFixture.updatedInputs, cacheDirectory: directory)
        }
        #expect("\(error)" == "\(directory)/lock: the cache directory is in use by another runtime (of this or another process); one runtime per cache directory at a time")
        #expect(try Self.listing(directory) == before)
        #expect(first.currentSet.identity == identity)
        withExtendedLifetime(first) {}
    }

    @Test("a runtime of another process holds the cache: refused while it lives, accepted after it ends")
    func otherProcess() throws {
        let directory = try RuntimeFixture.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Data().write(to: URL(fileURLWithPath: directory + "/lock"))
        // flock(1) takes the same kind of lock (flock(2)) a runtime of another process would.
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/flock")
        // --no-fork: the lock's holder is the one process, which end() ends.
        holder.arguments = ["--no-fork", directory + "/lock", "sh", "-c", "echo locked; exec sleep 60"]
        let output = Pipe()
        holder.standardOutput = output
        try holder.run()
        // SIGKILL: the test runner's children may inherit SIGTERM blocked.
        func end() {
            if holder.isRunning { kill(holder.processIdentifier, SIGKILL) }
            holder.waitUntilExit()
        }
        defer { end() }
        let said = String(decoding: output.fileHandleForReading.readData(ofLength: 7), as: UTF8.self)
        #expect(said == "locked\n")
        #expect(throws: ProtectionError.self) { try ProtectionRuntime(inputs: RuntimeFixture.inputs, cacheDirectory: directory) }
        #expect(!FileManager.default.fileExists(atPath: directory + "/set"), "the refused runtime wrote its set")
        end()
        let runtime = try ProtectionRuntime(inputs: RuntimeFixture.inputs, cacheDirectory: directory)
        #expect(runtime.currentSet.origin == .built)
    }

    @Test("a lock that is a symbolic link is refused, and what it points to untouched")
    func linkedLock() throws {
        let directory = try RuntimeFixture.directory()
        let outside = try RuntimeFixture.directory()
        defer {
            try? FileManager.default.removeItem(atPath: directory)
            try? FileManager.default.removeItem(atPath: outside)
        }
        try FileManager.default.createSymbolicLink(atPath: directory + "/lock", withDestinationPath: outside + "/target")
        let error = try #require(throws: ProtectionError.self) {
            try ProtectionRuntime(inputs: RuntimeFixture.inputs, cacheDirectory: directory)
        }
        #expect("\(error)".contains("/lock: cannot open the cache's lock: is a symbolic link"), "\(error)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside).isEmpty)
    }

    @Test("statistics taken from a runtime outlive it without holding the cache: the next runtime opens it and finds the saved counts")
    func statisticsOutliveTheRuntime() throws {
        let directory = try RuntimeFixture.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var first: ProtectionRuntime? = try ProtectionRuntime(inputs: RuntimeFixture.inputs, cacheDirectory: directory)
        let stats = try #require(first).stats
        stats.didCommitNavigation(tab: "1", url: "https://news.example/")
        stats.didCommitNavigation(tab: "1", url: "https://news.example/2")
        first = nil

        let second = try ProtectionRuntime(inputs: RuntimeFixture.inputs, cacheDirectory: directory)
        #expect(second.stats.totals().lifetime.pages == 2)
        // The old handle counts on, in memory only.
        stats.didCommitNavigation(tab: "1", url: "https://news.example/3")
        #expect(stats.totals().lifetime.pages == 3)
        #expect(second.stats.totals().lifetime.pages == 2)
    }

    @Test("temporaries of killed toggle and totals writes are removed at launch; a live process's are kept")
    func staleTemporaries() throws {
        let directory = try RuntimeFixture.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // pid 2^22+1 is above Linux's largest pid: no process has it.
        let dead = Int32(4_194_305)
        let stale = [".protection-off.json.tmp-\(dead)-12345", ".privacy-totals.tmp-\(dead)-1"]
        let live = ".privacy-totals.tmp-1-77"  // pid 1 runs
        let foreign = ".other.tmp-\(dead)-1"
        for name in stale + [live, foreign] { try Data("x".utf8).write(to: URL(fileURLWithPath: directory + "/" + name)) }
        let runtime = try ProtectionRuntime(inputs: RuntimeFixture.inputs, cacheDirectory: directory)
        let names = Set(try FileManager.default.contentsOfDirectory(atPath: directory))
        #expect(names.isDisjoint(with: stale), "\(names)")
        #expect(names.contains(live) && names.contains(foreign), "\(names)")
        withExtendedLifetime(runtime) {}
    }
}
