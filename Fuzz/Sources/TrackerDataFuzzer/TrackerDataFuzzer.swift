import ContentRuleList
import FuzzSupport
import RuleBuilder
import TrackerDataKit

/// tds.json as downloaded: DuckDuckGo's Tracker Radar blocklist.
///
/// Invariants: parsing never traps; a parsed blocklist gives the same value when parsed again;
/// the resolver decides the sample requests without trapping; the rule lists built from it pass
/// the project's own validator (`rules` must never write a list `validate` refuses).
@_cdecl("LLVMFuzzerTestOneInput")
public func trackerDataFuzzer(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes = FuzzInput.bytes(start, count)
    guard let trackerData = try? TrackerData(parsing: bytes, file: "tds.json") else { return 0 }
    require((try? TrackerData(parsing: bytes, file: "tds.json")) == trackerData, "parsing twice gives two values")
    let resolver = TrackerResolver(trackerData: trackerData)
    let urls = FuzzRequests.urls + trackerData.trackers.keys.sorted().prefix(4).map { "https://\($0)/x.js" }
    for url in urls {
        for site in FuzzRequests.sites {
            _ = resolver.decision(forRequestURL: url, topURL: site, type: .script)
        }
    }
    let build = RuleListBuilder(trackerData: trackerData).build()
    for (index, list) in build.ruleLists.enumerated() {
        let encoded = list.encoded()
        do throws(RuleListError) {
            _ = try RuleList(parsing: encoded)
        } catch {
            require(false, "rule list \(index) built from the tds fails validation: \(error)")
        }
    }
    return 0
}
