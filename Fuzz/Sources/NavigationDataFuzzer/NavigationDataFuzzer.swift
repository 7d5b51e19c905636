import FuzzSupport
import NavigationProtections
import TrackerDataKit

/// The navigation data a protection set carries for WebKitGTK's web processes
/// (`NavigationProtectionData`, read from the set's files by every web process).
///
/// Invariants: parsing never traps; what parses encodes to bytes that parse (the encoding keeps
/// only what the protections read), and from then on encoding and parsing are each other's
/// inverse; the protections made from it decide the sample navigations, Referer and Sec-GPC
/// without trapping.
@_cdecl("LLVMFuzzerTestOneInput")
public func navigationDataFuzzer(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes = FuzzInput.bytes(start, count)
    guard let data = try? NavigationProtectionData(parsing: bytes, file: "navigation.json") else { return 0 }
    let encoded = data.encoded()
    guard let again = try? NavigationProtectionData(parsing: encoded, file: "navigation.json") else {
        require(false, "the encoded data does not parse")
        return 0
    }
    require(again.encoded() == encoded, "encoding is not stable")
    let third = try? NavigationProtectionData(parsing: again.encoded(), file: "navigation.json")
    require(third == again, "encoded data parses to other data")
    let protector = NavigationProtector(data, gpcHeaderScope: .everyRequest)
    for url in FuzzRequests.urls {
        _ = protector.decision(for: Navigation(url: url, initiator: nil, referrer: nil))
        for site in FuzzRequests.sites {
            _ = protector.referrerTrimming.subrequestReferrer(site, topURL: site, requestURL: url)
            _ = protector.globalPrivacyControl.headerValue(topURL: site)
        }
    }
    return 0
}
