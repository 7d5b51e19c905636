import Foundation
import RequestHookKit
import Testing
import TrackerlessCore
import TrackerlessRuntime
import TrackerlessWebKitGTK

/// The configuration the browser gives each web process, made from the runtime.
@Suite("RequestHookConfiguration from the runtime")
struct RequestHookConfigurationTests {
    @Test("the current set's engine is written once per set as a file set, an update's replaces it, and the allowlist's sites are off")
    func engineFiles() async throws {
        let directory = try BrowserProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let data = directory.appendingPathComponent("data").path
        let runtime = try ProtectionRuntime(inputs: .sample, cacheDirectory: directory.appendingPathComponent("cache").path)
        let first = RequestHookConfiguration.current(of: runtime, blocksRequests: true, directory: data)
        #expect(first.enginePath == FileSet.generation(of: data + "/set") + "/engine.bin")
        #expect(FileManager.default.contents(atPath: first.enginePath).map { Array($0) } == runtime.currentSet.engine.compiled())
        #expect(first.navigationDataPath == FileSet.generation(of: data + "/set") + "/navigation.json")
        #expect(FileManager.default.contents(atPath: first.navigationDataPath).map { Array($0) } == runtime.currentSet.navigationData)
        #expect(first.sitesWithProtectionOff.isEmpty)
        #expect(throws: Never.self) { try RequestHook(configuration: first) }
        #expect(RequestHookConfiguration.current(of: runtime, blocksRequests: true, directory: data) == first)

        var inputs = ProtectionInputs.sample
        inputs.userAllowlist = .bytes(Array(#"["news.example"]"#.utf8), name: "allowlist")
        _ = try await runtime.update(inputs)
        try runtime.setProtection(false, forSite: "blog.example")
        let second = RequestHookConfiguration.current(of: runtime, blocksRequests: true, directory: data)
        #expect(second.enginePath != first.enginePath && FileManager.default.fileExists(atPath: second.enginePath))
        #expect(second.enginePath == FileSet.generation(of: data + "/set") + "/engine.bin")
        #expect(FileManager.default.fileExists(atPath: first.enginePath), "the set before is kept for a web process reading it")
        try runtime.setProtection(true, forSite: "blog.example")
        inputs.userAllowlist = .bytes(Array(#"["other.example"]"#.utf8), name: "allowlist")
        _ = try await runtime.update(inputs)
        let third = RequestHookConfiguration.current(of: runtime, blocksRequests: true, directory: data)
        #expect(third.enginePath != second.enginePath && FileManager.default.fileExists(atPath: second.enginePath))
        #expect(!FileManager.default.fileExists(atPath: first.enginePath), "older sets are removed")
        #expect(second.sitesWithProtectionOff == ["blog.example", "news.example"])
        #expect(third.sitesWithProtectionOff == ["other.example"])
        #expect(RequestHookConfiguration.current(of: runtime, blocksRequests: false, directory: data).enginePath.isEmpty)
    }

    /// A cut engine file was reused at every launch before: engine mode then blocked nothing.
    @Test("a damaged engine file of the current set is written again, not reused")
    func damagedEngineFile() throws {
        let directory = try BrowserProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let data = directory.appendingPathComponent("data").path
        let runtime = try ProtectionRuntime(inputs: .sample, cacheDirectory: directory.appendingPathComponent("cache").path)
        let first = RequestHookConfiguration.current(of: runtime, blocksRequests: true, directory: data)
        let whole = try Data(contentsOf: URL(fileURLWithPath: first.enginePath))
        for damage in [whole.prefix(whole.count / 2), Data(), whole.dropLast() + Data([whole.last.map { $0 ^ 1 } ?? 1])] {
            try Data(damage).write(to: URL(fileURLWithPath: first.enginePath))
            let again = RequestHookConfiguration.current(of: runtime, blocksRequests: true, directory: data)
            #expect(again.enginePath == first.enginePath)
            #expect(try Data(contentsOf: URL(fileURLWithPath: again.enginePath)) == whole)
            #expect(throws: Never.self) { try RequestHook(configuration: again) }
        }
    }
}
