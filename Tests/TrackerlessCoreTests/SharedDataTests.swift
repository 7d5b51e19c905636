import Foundation
import Testing
import TrackerlessCore
import TrackerlessTestSupport

@Suite("Real tracker data")
struct SharedDataTests {
    static let files = ["tds/apple-tds.json", "tds/extension-tds.json", "tds/apple-tds.duckduckgo-rules.json"]

    @Test("parses like Foundation, and round-trips through the writer",
          .enabled(if: files.contains(where: SharedData.shouldRun),
                   "../shared/data is absent; set TRACKERLESS_REQUIRE_SHARED_DATA=1 to require it"),
          arguments: files)
    func realFiles(relativePath: String) throws {
        let path = SharedData.path(relativePath)
        guard FileManager.default.fileExists(atPath: path) else {
            if SharedData.isRequired { Issue.record("required shared data is missing: \(path)") }
            return
        }
        let bytes = try FileIO.read(path: path)
        let value = try JSONParser.parse(bytes)
        let written = value.jsonBytes()
        #expect(try JSONParser.parse(written) == value)

        let reference = try JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
        let ours = try JSONSerialization.jsonObject(with: Data(written), options: [.fragmentsAllowed])
        #expect((reference as? NSObject)?.isEqual(ours) == true)
    }
}
