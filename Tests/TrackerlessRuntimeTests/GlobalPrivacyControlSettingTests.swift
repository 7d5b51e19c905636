import Foundation
import Testing
import TrackerlessRuntime
import UserScripts

/// The user's Global Privacy Control setting reaches the page through the runtime's scripts: it is
/// part of the set's identity, so turning it off builds scripts that say so instead of loading
/// the cached ones.
@Suite("Runtime: the user's GPC setting")
struct GlobalPrivacyControlSettingTests {
    @Test("turning GPC off builds the set again, with the setting in the blocking script; the next launch loads it")
    func settingChangesTheSet() throws {
        let directory = try RuntimeFixture.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let on = try ProtectionSet.load(RuntimeFixture.inputs, cacheDirectory: directory)
        var inputs = RuntimeFixture.inputs
        inputs.scriptSettings.globalPrivacyControl = false
        let off = try ProtectionSet.load(inputs, cacheDirectory: directory)
        #expect(off.origin == .built)
        #expect(off.identity != on.identity)
        let blocking = try #require(off.scripts.first { $0.isBlocking })
        #expect(blocking.source.contains(#""gpc":false"#))
        #expect(try #require(on.scripts.first { $0.isBlocking }).source.contains(#""gpc":true"#))
        #expect(try ProtectionSet.load(inputs, cacheDirectory: directory).origin == .cache)
    }
}
