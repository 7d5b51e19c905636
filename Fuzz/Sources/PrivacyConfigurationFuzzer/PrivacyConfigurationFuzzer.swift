import FuzzSupport
import TrackerDataKit
import TrackerlessCore

/// DuckDuckGo's privacy configuration as downloaded.
///
/// Invariants: parsing never traps and is deterministic; a parsed configuration drives the
/// resolver over the sample requests without trapping.
@_cdecl("LLVMFuzzerTestOneInput")
public func privacyConfigurationFuzzer(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes = FuzzInput.bytes(start, count)
    guard let configuration = try? PrivacyConfiguration(parsing: bytes, file: "config.json") else { return 0 }
    require(
        (try? PrivacyConfiguration(parsing: bytes, file: "config.json")) == configuration, "parsing twice gives two values")
    let resolver = TrackerResolver(trackerData: FuzzTrackerData.sample, privacyConfiguration: configuration)
    for url in FuzzRequests.urls {
        for site in FuzzRequests.sites {
            _ = resolver.decision(forRequestURL: url, topURL: site, type: .image)
        }
    }
    return 0
}
