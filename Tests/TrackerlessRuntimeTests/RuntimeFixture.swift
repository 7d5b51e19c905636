import Foundation
import TrackerDataKit
import TrackerlessCore
import TrackerlessRuntime
import UserScripts

/// Inputs, directories and messages the runtime tests share.
enum RuntimeFixture {
    /// A fresh directory for one test.
    static func directory() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("runtime-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// A configuration with content blocking on and no cookie feature (so no cookie list).
    static let configuration = #"{"features": {"contentBlocking": {"state": "enabled", "exceptions": []}}, "unprotectedTemporary": []}"#

    /// The bundled sample with ``configuration``.
    static var inputs: ProtectionInputs {
        var inputs = ProtectionInputs.sample
        inputs.privacyConfiguration = .bytes(Array(configuration.utf8), name: "privacy-config.json")
        return inputs
    }

    /// The sample blocklist with one more tracker, `pixel.example`: an update.
    static var updatedTrackerDataText: String {
        TrackerData.sampleDocument.replacingOccurrences(
            of: #""social.example": {"#,
            with: #""pixel.example": {"domain": "pixel.example", "owner": {"name": "Example Pixel", "displayName": "Pixel"}, "prevalence": 0.01, "default": "block"}, "social.example": {"#)
    }

    /// ``updatedTrackerDataText`` as bytes.
    static var updatedTrackerData: [UInt8] { Array(updatedTrackerDataText.utf8) }

    /// ``inputs`` with the updated blocklist.
    static var updatedInputs: ProtectionInputs {
        var inputs = Self.inputs
        inputs.trackerData = .bytes(updatedTrackerData, name: "tds-2.json")
        return inputs
    }

    /// An inference-script message from the top frame of `page` reporting `requests` (URL, type,
    /// state), as the script posts it.
    static func message(
        secret: ScriptSecret, page: String, document: String = "0123456789abcdef", sequence: Int = 0,
        requests: [(url: String, type: String, state: String)]
    ) -> String {
        let events = requests.map { #"{"kind":"request","url":"\#($0.url)","type":"\#($0.type)","state":"\#($0.state)"}"# }
        return #"{"trackerless":1,"secret":"\#(secret.value)","script":"inference","page":{"id":"\#(document)","url":"\#(page)","frame":"\#(page)","isTopFrame":true},"seq":\#(sequence),"events":[\#(events.joined(separator: ","))]}"#
    }
}
