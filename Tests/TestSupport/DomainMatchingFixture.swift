public import TrackerDataKit

/// The inputs of the TR-domain-matching suite: `tracker_radar_reference.json` and
/// `surrogates.txt`, with no privacy configuration.
public struct DomainMatchingFixture: Sendable {
    /// The reference blocklist.
    public var trackerData: TrackerData
    /// The reference surrogates (`tracker` and `script.js`).
    public var surrogates: Surrogates
    /// A resolver on both.
    public var resolver: TrackerResolver

    /// The fixture, loaded once; the error names the file that failed to load.
    public static let loaded: Result<DomainMatchingFixture, TrackerDataError> = {
        do throws(TrackerDataError) {
            let folder = SharedData.domainMatching
            let trackerData = try TrackerData(contentsOfFile: SharedData.path("\(folder)/tracker_radar_reference.json"))
            let text = String(decoding: SharedData.bytes("\(folder)/surrogates.txt") ?? [], as: UTF8.self)
            let surrogates = Surrogates(parsing: text, file: "surrogates.txt")
            return .success(DomainMatchingFixture(
                trackerData: trackerData, surrogates: surrogates,
                resolver: TrackerResolver(trackerData: trackerData, surrogates: surrogates)))
        } catch {
            return .failure(error)
        }
    }()
}
