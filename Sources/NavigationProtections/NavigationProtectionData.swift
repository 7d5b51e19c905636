public import TrackerDataKit
public import TrackerlessCore

/// What the navigation protections read of a privacy configuration and a blocklist, and nothing
/// more: the configuration's `ampLinks`, `trackingParameters`, `gpc` and `referrer` features and
/// its `unprotectedTemporary` sites; the blocklist's tracker domains, its property domains with
/// their owners, and its CNAMEs (what referrer trimming asks).
///
/// A protection set carries it encoded (`ProtectionSet.navigationData` of TrackerlessRuntime),
/// built with the set, so that a process that only sets the protections' headers (a WebKitGTK
/// web process) loads this small document instead of parsing tds.json and the configuration
/// again. A ``NavigationProtector`` made from it decides as one made from the whole inputs.
///
/// The encoding is one JSON object, `{"format": 1, "privacyConfiguration": {...}, "trackerData":
/// {...}}`, each part a document of its input's own format holding only the parts above, read
/// back by that format's parser; its bytes depend only on what it holds.
///
/// ```swift
/// let data = NavigationProtectionData(configuration: configuration, trackerData: trackerData)
/// let loaded = try NavigationProtectionData(parsing: data.encoded())
/// let protector = NavigationProtector(loaded, gpcHeaderScope: .everyRequest)
/// ```
public struct NavigationProtectionData: Sendable, Hashable {
    /// The version of the encoding; a document of another version is refused.
    public static let format = 1
    /// The privacy-configuration features the navigation protections read.
    public static let features = [AMPLinks.feature, TrackingParameters.feature, GlobalPrivacyControl.feature, ReferrerTrimming.feature]

    /// The configuration's navigation features and `unprotectedTemporary` sites, without the
    /// exceptions' reasons.
    public let configuration: PrivacyConfiguration
    /// The blocklist's trackers (by domain, without their rules), property domains and CNAMEs.
    public let trackerData: TrackerData

    /// What the navigation protections read of `configuration` and `trackerData`.
    public init(configuration: PrivacyConfiguration, trackerData: TrackerData) {
        var features: [String: PrivacyConfiguration.Feature] = [:]
        for name in Self.features {
            guard let feature = configuration.features[name] else { continue }
            var kept = PrivacyConfiguration.Feature(
                state: feature.state, exceptions: feature.exceptions.map { .init(domain: $0.domain) })
            kept.settingsText = feature.settingsText
            features[name] = kept
        }
        self.configuration = PrivacyConfiguration(
            features: features, unprotectedTemporary: configuration.unprotectedTemporary.map { .init(domain: $0.domain) })
        self.trackerData = TrackerData(
            trackers: trackerData.trackers.mapValues { Tracker(domain: $0.domain, defaultAction: nil) },
            domains: trackerData.domains, cnames: trackerData.cnames)
    }

    /// The data in `bytes`, as ``encoded()`` writes them.
    ///
    /// - Parameters:
    ///   - bytes: the document ``encoded()`` wrote.
    ///   - file: the name errors give.
    /// - Throws: `TrackerDataError` naming the file and the member: not JSON, another format
    ///   version, or a part its input's parser refuses.
    public init(parsing bytes: [UInt8], file: String? = nil) throws(TrackerDataError) {
        let name = file
        var format: Double?
        var configurationText: JSONText?
        var trackerDataText: JSONText?
        do throws(JSONReadError) {
            try JSONReader.read(bytes) { (reader) throws(JSONReadError) in
                var members = try reader.enterObject(at: .root)
                while let key = try reader.nextKey(in: &members) {
                    switch key {
                    case "format": format = try reader.readDouble(at: JSONPath.root.appending(key: "format"))
                    case "privacyConfiguration": configurationText = try reader.readText()
                    case "trackerData": trackerDataText = try reader.readText()
                    default: try reader.skipValue()
                    }
                }
            }
        } catch {
            switch error {
            case .syntax(let syntax): throw .syntax(syntax, file: name)
            case .invalidValue(let invalid): throw .invalidValue(invalid, file: name)
            case .rejected(let other): throw .invalidValue(JSONDecodingError(path: .root, reason: "\(other)"), file: name)
            }
        }
        guard format == Double(Self.format) else {
            throw .invalidValue(JSONDecodingError(
                path: JSONPath.root.appending(key: "format"),
                reason: "not format \(Self.format) (another version of the SDK wrote it): build the protection set again"), file: name)
        }
        guard let configurationText, let trackerDataText else {
            let missing = configurationText == nil ? "privacyConfiguration" : "trackerData"
            throw .invalidValue(JSONDecodingError(path: .root, reason: "the member \"\(missing)\" is missing"), file: name)
        }
        configuration = try PrivacyConfiguration(
            parsing: configurationText.bytes, file: name.map { "\($0): privacyConfiguration" } ?? "privacyConfiguration")
        trackerData = try TrackerData(parsing: trackerDataText.bytes, file: name.map { "\($0): trackerData" } ?? "trackerData")
    }

    /// The data as one JSON document, members and keys sorted.
    public func encoded() -> [UInt8] {
        var writer = JSONWriter()
        writer.writeRaw("{\"format\":\(Self.format),\"privacyConfiguration\":{\"features\":{")
        for (index, name) in configuration.features.keys.sorted().enumerated() {
            guard let feature = configuration.features[name] else { continue }
            if index > 0 { writer.writeRaw(",") }
            writer.writeString(name)
            writer.writeRaw(":{\"state\":")
            writer.writeString(feature.state.rawValue)
            writer.writeRaw(",\"exceptions\":")
            Self.writeSites(feature.exceptions, to: &writer)
            if let settings = feature.settingsText {
                writer.writeRaw(",\"settings\":")
                writer.writeRaw(String(decoding: settings.bytes, as: UTF8.self))
            }
            writer.writeRaw("}")
        }
        writer.writeRaw("},\"unprotectedTemporary\":")
        Self.writeSites(configuration.unprotectedTemporary, to: &writer)
        writer.writeRaw("},\"trackerData\":{\"trackers\":{")
        for (index, domain) in trackerData.trackers.keys.sorted().enumerated() {
            if index > 0 { writer.writeRaw(",") }
            writer.writeString(domain)
            writer.writeRaw(":{}")
        }
        writer.writeRaw("},\"entities\":{},\"domains\":")
        Self.writeMap(trackerData.domains, to: &writer)
        writer.writeRaw(",\"cnames\":")
        Self.writeMap(trackerData.cnames, to: &writer)
        writer.writeRaw("}}")
        return writer.bytes
    }

    /// `[{"domain": ...}, ...]`.
    private static func writeSites(_ sites: [PrivacyConfiguration.Exception], to writer: inout JSONWriter) {
        writer.writeRaw("[")
        for (index, site) in sites.enumerated() {
            writer.writeRaw(index > 0 ? ",{\"domain\":" : "{\"domain\":")
            writer.writeString(site.domain)
            writer.writeRaw("}")
        }
        writer.writeRaw("]")
    }

    /// An object of strings, keys sorted.
    private static func writeMap(_ map: [String: String], to writer: inout JSONWriter) {
        writer.writeRaw("{")
        for (index, key) in map.keys.sorted().enumerated() {
            if index > 0 { writer.writeRaw(",") }
            writer.writeString(key)
            writer.writeRaw(":")
            writer.writeString(map[key] ?? "")
        }
        writer.writeRaw("}")
    }
}
