import Testing
import TrackerDataKit
import TrackerlessCore
import TrackerlessTestSupport

/// One case of a privacy-reference-tests suite (`tests.json`): its set, its name and its fields.
struct ReferenceCase: Sendable, CustomTestStringConvertible {
    var set: String
    var name: String
    var fields: JSONObject

    var testDescription: String { "\(set): \(name)" }

    func string(_ key: String) -> String? {
        if case .string(let value)? = fields[key] { return value }
        return nil
    }

    func bool(_ key: String) -> Bool? {
        if case .bool(let value)? = fields[key] { return value }
        return nil
    }

    /// Whether the field is present with the JSON value null.
    func isNull(_ key: String) -> Bool {
        if case .null? = fields[key] { return true }
        return false
    }

    func has(_ key: String) -> Bool { fields[key] != nil }
}

/// A suite folder of ../shared/data/privacy-reference-tests.
struct ReferenceSuite {
    let folder: String

    /// Every case of every set of `tests.json`, in file order; none when the file is missing.
    var cases: [ReferenceCase] {
        guard let bytes = SharedData.bytes("privacy-reference-tests/\(folder)/tests.json"),
            case .object(let root)? = try? JSONParser.parse(bytes)
        else { return [] }
        var cases: [ReferenceCase] = []
        for set in root.keys {
            guard case .object(let object)? = root[set], case .array(let tests)? = object["tests"] else { continue }
            for case .object(let test) in tests {
                guard case .string(let name)? = test["name"] else { continue }
                cases.append(ReferenceCase(set: set, name: name, fields: test))
            }
        }
        return cases
    }

    func path(_ file: String) -> String { SharedData.path("privacy-reference-tests/\(folder)/\(file)") }

    /// The suite's `config_reference.json`.
    func configuration() throws -> PrivacyConfiguration { try PrivacyConfiguration(contentsOfFile: path("config_reference.json")) }

    /// The suite's `tracker_radar_reference.json`.
    func trackerData() throws -> TrackerData { try TrackerData(contentsOfFile: path("tracker_radar_reference.json")) }
}
