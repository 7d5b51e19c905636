import Foundation
import Testing
import TrackerlessCore
@testable import URLPrefilter

@Suite("Prefilter and PIR server inputs")
struct PrefilterTests {
    static let entries: PrefilterEntries = {
        (try? PrefilterEntries(BloomFilterTests.sampleEntries)) ?? PrefilterEntries(canonical: [])
    }()

    @Test("prefilter.json holds Apple's golden vector and its SHA-256 tag")
    func prefilterJSON() throws {
        let prefilter = try Prefilter(entries: Self.entries, falsePositiveRate: 0.001, murmurSeed: 1_267_652_889)
        let json = String(decoding: prefilter.jsonBytes(), as: UTF8.self)
        #expect(json == """
            {"data":"JGguOvZzlBEHYkUWJC5vw/eH","bitCount":144,"hashCount":10,"murmurSeed":1267652889,\
            "tag":"\(SHA256.hexDigest(prefilter.data))"}

            """)
        #expect(prefilter.tag.count == 64)
        let readBack = try Prefilter(parsing: prefilter.jsonBytes())
        #expect(readBack.bloomFilter == prefilter.bloomFilter)
    }

    @Test("prefilter.json read back: a wrong tag or a bad field is named")
    func prefilterJSONErrors() {
        #expect(throws: PrefilterError.self) {
            try Prefilter(parsing: Array(#"{"data":"AAA=","bitCount":16,"hashCount":1,"murmurSeed":0,"tag":"00"}"#.utf8))
        }
        #expect(throws: PrefilterError.invalidFile(
            path: "p.json", reason: "murmurSeed: expected a whole number from 0 to 4294967295, found -1")
        ) {
            try Prefilter(parsing: Array(#"{"data":"AAA=","bitCount":16,"hashCount":1,"murmurSeed":-1,"tag":"00"}"#.utf8), file: "p.json")
        }
    }

    @Test("input.txtpb: one KeywordDatabase row per entry, value \"1\"")
    func keywordDatabase() throws {
        let inputs = try PIRServerInputs(entries: PrefilterEntries(["b.example/x\"y", "a.example"]), appBundleIdentifier: "com.example.app")
        #expect(String(decoding: inputs.keywordDatabase(), as: UTF8.self) == """
            rows { keyword: "a.example" value: "1" }
            rows { keyword: "b.example/x\\"y" value: "1" }

            """)
    }

    @Test("url-config.json and service-config.json agree on the file stem and the shard count")
    func configurations() throws {
        let many = PrefilterEntries(canonical: (0..<120_000).map { "host\($0).example" })
        let inputs = try PIRServerInputs(entries: many, appBundleIdentifier: "com.example.app", userTokens: ["AAAA"])
        #expect(inputs.shardCount == 2)
        #expect(String(decoding: inputs.processingConfiguration(), as: UTF8.self) == """
            {"databaseType":"keyword","inputDatabase":"input.txtpb","outputDatabase":"url-SHARD_ID.bin",\
            "outputPirParameters":"url-SHARD_ID.params.txtpb","rlweParameters":"n_4096_logq_27_28_28_logt_5",\
            "sharding":{"shardCount":2},"trialsPerShard":5}

            """)
        #expect(String(decoding: inputs.serviceConfiguration(), as: UTF8.self) == """
            {"users":[{"tier":"tier1","tokens":["AAAA"]}],\
            "usecases":[{"fileStem":"url","shardCount":2,"name":"com.example.app.url.filtering"}]}

            """)
    }

    @Test("Bad PIR options are named")
    func badOptions() {
        #expect(throws: PrefilterError.self) { try PIRServerInputs(entries: Self.entries, appBundleIdentifier: "") }
        #expect(throws: PrefilterError.self) { try PIRServerInputs(entries: Self.entries, appBundleIdentifier: "com example") }
        #expect(throws: PrefilterError.self) {
            try PIRServerInputs(entries: Self.entries, appBundleIdentifier: "com.example", userTokens: ["a b"])
        }
    }

    // MARK: Writing a directory

    static func temporaryDirectory() -> String {
        let path = NSTemporaryDirectory() + "prefilter-test-\(UInt32.random(in: 0...UInt32.max))"
        return path
    }

    static func bundle(seed: UInt32) throws -> PrefilterBundle {
        PrefilterBundle(
            prefilter: try Prefilter(entries: entries, falsePositiveRate: 0.001, murmurSeed: seed),
            pirServerInputs: try PIRServerInputs(entries: entries, appBundleIdentifier: "com.example.app"))
    }

    static func contents(of directory: String) -> [String: [UInt8]] {
        var result: [String: [UInt8]] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] {
            result[name] = FileManager.default.contents(atPath: directory + "/" + name).map { [UInt8]($0) }
        }
        return result
    }

    @Test("write(toDirectory:) writes the four files as one set, and replaces them with the next")
    func writesDirectory() throws {
        let parent = Self.temporaryDirectory()
        try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: parent) }
        let directory = parent + "/out"
        let first = try Self.bundle(seed: 1)
        try first.write(toDirectory: directory)
        #expect(Self.contents(of: directory) == Dictionary(uniqueKeysWithValues: first.files.map { ($0.name, $0.bytes) }))
        let firstGeneration = FileSet.generation(of: directory)
        #expect(firstGeneration != directory, "the path links to its generation")
        let second = try Self.bundle(seed: 2)
        try second.write(toDirectory: directory)
        #expect(Self.contents(of: directory) == Dictionary(uniqueKeysWithValues: second.files.map { ($0.name, $0.bytes) }))
        #expect(FileSet.generation(of: directory) != firstGeneration)
    }

    @Test("a directory of an older write is replaced; one holding other files, or a file, is refused and left as it was")
    func replacesOnlyItsOwnDirectory() throws {
        let parent = Self.temporaryDirectory()
        try FileManager.default.createDirectory(atPath: parent + "/old", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: parent) }
        _ = FileManager.default.createFile(atPath: parent + "/old/prefilter.json", contents: Data("old".utf8))
        _ = FileManager.default.createFile(atPath: parent + "/old/url-0.bin", contents: Data([1]))
        let bundle = try Self.bundle(seed: 1)
        #expect(throws: PrefilterError.self) { try bundle.write(toDirectory: parent + "/old") }
        #expect(Self.contents(of: parent + "/old") == ["prefilter.json": Array("old".utf8), "url-0.bin": [1]])
        try bundle.write(toDirectory: parent + "/old", isOwnFile: { $0.hasPrefix("url-") })
        #expect(Self.contents(of: parent + "/old").count == 4, "the older outputs replaced, url-0.bin with them")
        _ = FileManager.default.createFile(atPath: parent + "/file", contents: Data("mine".utf8))
        #expect(throws: PrefilterError.self) { try bundle.write(toDirectory: parent + "/file") }
        #expect(FileManager.default.contents(atPath: parent + "/file") == Data("mine".utf8))
    }
}
