import Foundation
import Testing
import TrackerDataKit
import TrackerlessTestSupport

/// A C host keeping its runtime current from URLs (`c/updater_test.c`) against a loopback server:
/// updated, then unchanged with 304s, a missing URL refused with TL_ERROR_NETWORK, arguments
/// refused, the schedule's callback, and a relaunch that takes the downloads.
extension CAPITests {
    static let updaterProgram = compile("updater_test.c")

    /// The sample blocklist with one more tracker: what the server serves.
    static let updatedTrackerData = TrackerData.sampleDocument.replacingOccurrences(
        of: #""social.example": {"#,
        with: #""pixel.example": {"domain": "pixel.example", "owner": {"name": "Example Pixel", "displayName": "Pixel"}, "prevalence": 0.01, "default": "block"}, "social.example": {"#)

    @Test("a C host's updater: updated then unchanged (304), a 404 refused with TL_ERROR_NETWORK naming the input, bad arguments refused, scheduled reports, a relaunch taking the downloads")
    func updaterFromURLs() throws {
        let program = try Self.updaterProgram.get()
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let embedded = directory.appendingPathComponent("tds.json")
        try Data(TrackerData.sampleDocument.utf8).write(to: embedded)
        let server = try LoopbackServer()
        try server.route("/tds.json", .init(body: Self.updatedTrackerData, etag: "\"tds-2\""))
        try server.route("/config.json", .init(body: #"{"features": {}, "unprotectedTemporary": []}"#, etag: "\"config-1\""))

        let run = try ChildProcess.run(program, [
            directory.appendingPathComponent("cache").path, embedded.path, "http://127.0.0.1:\(server.port)",
        ], logs: directory)
        #expect(run.status == 0, "\(run.output.suffix(3000))")
        let lines = run.output.split(separator: "\n").map(String.init)

        let first = try Self.object("first", in: lines)
        #expect(first["outcome"] as? String == "updated", "\(first)")
        let inputs = try #require(first["inputs"] as? [[String: Any]])
        #expect(inputs.map { $0["status"] as? Int } == [200, 200] && inputs.map { $0["result"] as? String } == ["downloaded", "downloaded"])
        let second = try Self.object("second", in: lines)
        #expect(second["outcome"] as? String == "unchanged" && second["setIdentity"] as? String == first["setIdentity"] as? String, "\(second)")
        #expect(((second["inputs"] as? [[String: Any]]) ?? []).map { $0["status"] as? Int } == [304, 304])
        #expect(server.requests("/tds.json").last?.ifNoneMatch == "\"tds-2\"")

        let embeddedSet = try Self.object("embedded", in: lines)["setIdentity"] as? String
        let updatedSet = try Self.object("updated", in: lines)["setIdentity"] as? String
        #expect(embeddedSet != nil && embeddedSet != updatedSet && updatedSet == first["setIdentity"] as? String)

        let missing = try Self.object("missing", in: lines)
        #expect(missing["outcome"] as? String == "refused")
        let error = try #require(missing["error"] as? [String: Any])
        #expect(error["input"] as? String == "tds" && error["status"] as? Int == 404 && error["reason"] as? String == "http status", "\(error)")
        #expect(lines.contains("missing error: tds (http://127.0.0.1:\(server.port)/missing.json): HTTP status 404; only 200 and 304 are accepted"), "\(lines)")
        #expect(missing["setIdentity"] as? String == updatedSet, "a refused update keeps the set")

        #expect(lines.contains { $0.hasPrefix("ok: ftp refused: tds (ftp://127.0.0.1/tds.json): \"ftp://127.0.0.1/tds.json\" is not an http or https URL") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("ok: policy refused: policy_json: unknown setting \"colour\"") }, "\(lines)")
        #expect(lines.contains("ok: scheduled reports"))
        #expect(try Self.object("relaunched", in: lines)["setIdentity"] as? String == updatedSet)
    }
}
