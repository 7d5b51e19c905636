import Testing
import TrackerlessCore
import TrackerlessRuntime

/// The build hands back the SHA-256 of each input's bytes as it read them, so a manifest names
/// its inputs without reading the files again.
@Suite("ProtectionBuild: the inputs' SHA-256")
struct ProtectionBuildInputTests {
    @Test("each input given by its bytes' SHA-256; nil for one not given")
    func inputDigests() throws {
        var inputs = ProtectionInputs.sample
        let allowlist = Array(#"["news.example"]"#.utf8)
        inputs.userAllowlist = .bytes(allowlist, name: "allowlist")
        let build = try ProtectionBuild(inputs, secret: .marker)
        #expect(build.inputSHA256(.userAllowlist) == SHA256.hexDigest(allowlist))
        let trackerBytes: [UInt8]
        switch inputs.trackerData {
        case .bytes(let bytes, _): trackerBytes = bytes
        case .file(let path): trackerBytes = try FileIO.read(path: path)
        }
        #expect(build.inputSHA256(.trackerData) == SHA256.hexDigest(trackerBytes))
        #expect(build.inputSHA256(.privacyConfiguration) == nil)
    }
}
