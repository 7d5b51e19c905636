import FuzzSupport
import TrackerDataKit

/// The user allowlist file: a JSON array of sites where protection is off.
///
/// Invariants: parsing never traps; every listed domain is found by `contains(host:)`; the
/// resolver decides the sample requests under it without trapping.
@_cdecl("LLVMFuzzerTestOneInput")
public func userAllowlistFuzzer(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes = FuzzInput.bytes(start, count)
    guard let allowlist = try? UserAllowlist(parsing: bytes, file: "allowlist.json") else { return 0 }
    for domain in allowlist.domains {
        require(allowlist.contains(host: domain), "\(domain) is listed but not contained")
    }
    let resolver = TrackerResolver(trackerData: FuzzTrackerData.sample, userAllowlist: allowlist)
    for url in FuzzRequests.urls {
        for site in FuzzRequests.sites + allowlist.domains.sorted().prefix(2).map({ "https://\($0)/" }) {
            _ = resolver.decision(forRequestURL: url, topURL: site, type: .script)
        }
    }
    return 0
}
