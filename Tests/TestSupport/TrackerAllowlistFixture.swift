public import TrackerDataKit

/// The inputs of the tracker allowlist suite: `tracker_allowlist_reference.json`,
/// `tracker_allowlist_tds_reference.json`, and a configuration enabling `contentBlocking` and
/// `trackerAllowlist` with that allowlist.
public struct TrackerAllowlistFixture: Sendable {
    /// The allowlist on its own.
    public var allowlist: TrackerAllowlist
    /// The blocklist of the allowlisted trackers.
    public var trackerData: TrackerData
    /// `contentBlocking` and `trackerAllowlist` enabled, with ``allowlist``.
    public var configuration: PrivacyConfiguration
    /// A resolver on ``trackerData`` and ``configuration``.
    public var resolver: TrackerResolver

    /// The fixture, loaded once; the error names the file that failed to load.
    public static let loaded: Result<TrackerAllowlistFixture, TrackerDataError> = {
        do throws(TrackerDataError) {
            let folder = SharedData.domainMatching
            let allowlist = try TrackerAllowlist(
                parsing: SharedData.bytes("\(folder)/tracker_allowlist_reference.json") ?? [],
                file: "tracker_allowlist_reference.json")
            let trackerData = try TrackerData(
                contentsOfFile: SharedData.path("\(folder)/tracker_allowlist_tds_reference.json"))
            let configuration = PrivacyConfiguration(
                features: [
                    PrivacyConfiguration.FeatureName.contentBlocking: .init(state: .enabled),
                    PrivacyConfiguration.FeatureName.trackerAllowlist: .init(state: .enabled),
                ],
                trackerAllowlist: allowlist)
            return .success(TrackerAllowlistFixture(
                allowlist: allowlist, trackerData: trackerData, configuration: configuration,
                resolver: TrackerResolver(trackerData: trackerData, privacyConfiguration: configuration)))
        } catch {
            return .failure(error)
        }
    }()
}
