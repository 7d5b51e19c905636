import Foundation
import Testing
import TrackerlessCore
import TrackerlessRuntime
import UserScripts

@Suite("Cache directory: a relaunch builds nothing; a damaged cache is rebuilt, never trusted")
struct ProtectionCacheTests {
    /// The files of the cache's current generation.
    static func cacheFiles(_ directory: String) throws -> [String] {
        let generation = FileSet.generation(of: directory + "/set")
        return try FileManager.default.contentsOfDirectory(atPath: generation).sorted().map { generation + "/" + $0 }
    }

    /// Writes the cache's current generation again as a whole new generation (every file passes
    /// its check), each file as `change` makes it from its name and bytes.
    static func rewriteGeneration(_ directory: String, _ change: (String, [UInt8]) -> FileSet.File) throws {
        let files = try cacheFiles(directory).map { path in change((path as NSString).lastPathComponent, try FileIO.read(path: path)) }
        try FileSet.write(files, to: directory + "/set")
    }

    @Test("a relaunch with the same inputs loads the set from the cache: same lists, scripts with the new secret")
    func warmRelaunch() throws {
        let directory = try RuntimeFixture.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = try ProtectionSet.load(RuntimeFixture.inputs, cacheDirectory: directory)
        #expect(first.origin == .built)
        let second = try ProtectionSet.load(RuntimeFixture.inputs, cacheDirectory: directory)
        #expect(second.origin == .cache)
        #expect(second.identity == first.identity)
        #expect(second.ruleLists == first.ruleLists)
        #expect(second.messageHandlerName == first.messageHandlerName)
        #expect(second.scripts.map(\.world) == first.scripts.map(\.world))
        #expect(second.engine.compiled() == first.engine.compiled())
        // Each launch has its own secret; the scripts are otherwise the same bytes.
        #expect(second.secret != first.secret)
        for (old, new) in zip(first.scripts, second.scripts) {
            #expect(new.source.contains(second.secret.value))
            #expect(!new.source.contains(first.secret.value))
            #expect(new.source.replacingOccurrences(of: second.secret.value, with: first.secret.value) == old.source)
        }
        // No secret is written to disk.
        for file in try Self.cacheFiles(directory) {
            let text = String(decoding: try FileIO.read(path: file), as: UTF8.self)
            #expect(!text.contains(first.secret.value), "\(file)")
        }
    }

    @Test("changed inputs are built and replace the cached set")
    func changedInputs() throws {
        let directory = try RuntimeFixture.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        _ = try ProtectionSet.load(RuntimeFixture.inputs, cacheDirectory: directory)
        var updated = RuntimeFixture.inputs
        updated.trackerData = .bytes(RuntimeFixture.updatedTrackerData, name: "tds.json")
        #expect(try ProtectionSet.load(updated, cacheDirectory: directory).origin == .built)
        #expect(try ProtectionSet.load(updated, cacheDirectory: directory).origin == .cache)
    }

    @Test("every cache file cut short, or with one byte flipped, is detected: the set is built again and the cache repaired")
    func damagedCache() throws {
        let directory = try RuntimeFixture.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let reference = try ProtectionSet.load(RuntimeFixture.inputs, cacheDirectory: directory)
        let names = try Self.cacheFiles(directory).map { ($0 as NSString).lastPathComponent }
        #expect(names.contains("contents.json") && names.contains("engine.bin") && names.contains("blocking.js"))
        for name in names {
            for damage in ["cut", "flip"] {
                let path = FileSet.generation(of: directory + "/set") + "/" + name
                var bytes = try FileIO.read(path: path)
                if damage == "cut" {
                    bytes.removeLast(bytes.count / 2 + 1)
                } else {
                    bytes[bytes.count / 2] ^= 0x01
                }
                // Damage in place, as a failing disk or an interrupted copy would.
                try Data(bytes).write(to: URL(fileURLWithPath: path))
                if name == "engine.sources.json" {
                    // Not read at launch (RuleSourceRuntimeTests): found damaged on first use, no source
                    // given, and the next launch builds the generation again.
                    let launched = try ProtectionSet.load(RuntimeFixture.inputs, cacheDirectory: directory)
                    #expect(launched.origin == .cache, "\(damage)")
                    #expect(launched.ruleSource(list: 0, rule: 0) == nil, "\(damage)")
                    #expect(reference.ruleSource(list: 0, rule: 0) != nil)
                }
                let loaded = try ProtectionSet.load(RuntimeFixture.inputs, cacheDirectory: directory)
                #expect(loaded.origin == .built, "\(name) \(damage)")
                #expect(loaded.ruleLists == reference.ruleLists, "\(name) \(damage)")
                #expect(try ProtectionSet.load(RuntimeFixture.inputs, cacheDirectory: directory).origin == .cache,
                    "\(name) \(damage): repaired")
            }
        }
    }

    @Test("altered cache contents are detected as any other file: a changed handler name or rule count is rebuilt, not loaded")
    func alteredContents() throws {
        let directory = try RuntimeFixture.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let reference = try ProtectionSet.load(RuntimeFixture.inputs, cacheDirectory: directory)
        let count = try #require(reference.ruleLists.first?.ruleCount)
        for (from, to) in [(#""handler":"trackerless""#, #""handler":"trackerlesz""#), (#""rules":\#(count)"#, #""rules":\#(count + 1)"#)] {
            let path = FileSet.generation(of: directory + "/set") + "/contents.json"
            let text = String(decoding: try FileIO.read(path: path), as: UTF8.self)
            #expect(text.contains(from), "\(text)")
            try Data(text.replacingOccurrences(of: from, with: to).utf8).write(to: URL(fileURLWithPath: path))
            let loaded = try ProtectionSet.load(RuntimeFixture.inputs, cacheDirectory: directory)
            #expect(loaded.origin == .built, "\(to)")
            #expect(loaded.messageHandlerName == "trackerless")
            #expect(loaded.ruleLists.first?.ruleCount == count)
            #expect(try ProtectionSet.load(RuntimeFixture.inputs, cacheDirectory: directory).origin == .cache)
        }
    }

    @Test("a missing file, contents.json included, is rebuilt")
    func missingFiles() throws {
        let directory = try RuntimeFixture.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        _ = try ProtectionSet.load(RuntimeFixture.inputs, cacheDirectory: directory)
        for file in try Self.cacheFiles(directory) {
            try FileManager.default.removeItem(atPath: file)
            #expect(try ProtectionSet.load(RuntimeFixture.inputs, cacheDirectory: directory).origin == .built, "\(file)")
        }
    }

    @Test("a generation of cache format 4 (manifest.json naming the set's identifier) is not loaded: the set is built and written as format 5")
    func previousFormat() throws {
        let directory = try RuntimeFixture.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let reference = try ProtectionSet.load(RuntimeFixture.inputs, cacheDirectory: directory)
        // The same generation as format 4 wrote it: its contents under the old name and keys.
        try Self.rewriteGeneration(directory) { name, bytes in
            guard name == "contents.json" else { return (name, bytes) }
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(text.contains(#""format":5"#) && text.contains(#""identity":"\#(reference.identity)""#), "\(text)")
            let old = text.replacingOccurrences(of: #""format":5"#, with: #""format":4"#)
                .replacingOccurrences(of: #""identity":"#, with: #""identifier":"#)
            return ("manifest.json", Array(old.utf8))
        }
        #expect(try Self.cacheFiles(directory).contains { $0.hasSuffix("/manifest.json") })

        let relaunched = try ProtectionSet.load(RuntimeFixture.inputs, cacheDirectory: directory)
        #expect(relaunched.origin == .built)
        #expect(relaunched.identity == reference.identity)
        let names = try Self.cacheFiles(directory).map { ($0 as NSString).lastPathComponent }
        #expect(names.contains("contents.json") && !names.contains("manifest.json"), "\(names)")
        #expect(try ProtectionSet.load(RuntimeFixture.inputs, cacheDirectory: directory).origin == .cache)
    }

    @Test("navigation data that passes its checksum but does not decode (a parser changed without the cache's format) is a damaged generation: the set is built again, not decided from the inputs behind the host's back")
    func undecodableNavigationData() throws {
        let directory = try RuntimeFixture.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let reference = try ProtectionSet.load(RuntimeFixture.inputs, cacheDirectory: directory)
        var rewritten = false
        try Self.rewriteGeneration(directory) { name, bytes in
            guard name == "navigation.json" else { return (name, bytes) }
            rewritten = true
            return (name, Array(#"{"format":999}"#.utf8))
        }
        try #require(rewritten, "no navigation.json in the cache")

        let relaunched = try ProtectionSet.load(RuntimeFixture.inputs, cacheDirectory: directory)
        #expect(relaunched.origin == .built)
        #expect(relaunched.navigationData == reference.navigationData)
        let stored = try FileIO.read(path: FileSet.generation(of: directory + "/set") + "/navigation.json")
        #expect(stored == reference.navigationData, "the cache repaired")
        #expect(try ProtectionSet.load(RuntimeFixture.inputs, cacheDirectory: directory).origin == .cache)
    }
}
