public import TrackerDataKit

/// The inputs of the request blocklist suite: the folder's configuration, blocklist,
/// surrogates and user allowlist.
public struct RequestBlocklistFixture: Sendable {
    /// `tds-reference.json`.
    public var trackerData: TrackerData
    /// `config-reference.json`, with its request blocklist.
    public var configuration: PrivacyConfiguration
    /// `user-allowlist-reference.json`.
    public var userAllowlist: UserAllowlist
    /// `surrogates-reference.txt`.
    public var surrogates: Surrogates
    /// A resolver on all four.
    public var resolver: TrackerResolver

    /// The fixture, loaded once; the error names the file that failed to load.
    public static let loaded: Result<RequestBlocklistFixture, TrackerDataError> = {
        do throws(TrackerDataError) {
            let folder = SharedData.requestBlocklist
            let trackerData = try TrackerData(contentsOfFile: SharedData.path("\(folder)/tds-reference.json"))
            let configuration = try PrivacyConfiguration(contentsOfFile: SharedData.path("\(folder)/config-reference.json"))
            let userAllowlist = try UserAllowlist(
                parsing: SharedData.bytes("\(folder)/user-allowlist-reference.json") ?? [],
                file: "user-allowlist-reference.json")
            let surrogates = Surrogates(
                parsing: String(decoding: SharedData.bytes("\(folder)/surrogates-reference.txt") ?? [], as: UTF8.self),
                file: "surrogates-reference.txt")
            return .success(RequestBlocklistFixture(
                trackerData: trackerData, configuration: configuration, userAllowlist: userAllowlist,
                surrogates: surrogates,
                resolver: TrackerResolver(
                    trackerData: trackerData, surrogates: surrogates, privacyConfiguration: configuration,
                    userAllowlist: userAllowlist)))
        } catch {
            return .failure(error)
        }
    }()
}
