import Foundation
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

    @Test("a tds file over 512 MiB is refused before it is read, naming the file and the limit")
    func oversizedTrackerData() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("trackerless-oversized-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("tds.json").path
        try FileIO.writeAtomically([], to: path)
        try #require(truncate(path, off_t(512 << 20) + 1) == 0, "cannot make a sparse file")
        let error = #expect(throws: (any Error).self) { try ProtectionBuild(ProtectionInputs(trackerData: .file(path)), secret: .marker) }
        #expect("\(error.map { "\($0)" } ?? "")".contains("\(path): file is too large (\((512 << 20) + 1) bytes; the limit is \(512 << 20) bytes)"),
                "\(String(describing: error))")
    }
}
