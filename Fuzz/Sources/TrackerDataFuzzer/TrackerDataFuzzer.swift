import ContentRuleList
import FuzzSupport
import RuleBuilder
import TrackerDataKit

/// tds.json as downloaded: DuckDuckGo's Tracker Radar blocklist.
///
/// Invariants: parsing never traps; a parsed blocklist gives the same value when parsed again;
/// parsed giving its bytes back and without entity records, it gives the same value less the
/// entities, or the same error;
/// the resolver decides the sample requests without trapping; the rule lists built from it pass
/// the project's own validator (`rules` must never write a list `validate` refuses).
@_cdecl("LLVMFuzzerTestOneInput")
public func trackerDataFuzzer(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes = FuzzInput.bytes(start, count)
    let trackerData: TrackerData
    do throws(TrackerDataError) {
        trackerData = try TrackerData(parsing: bytes, file: "tds.json")
    } catch {
        do throws(TrackerDataError) {
            _ = try TrackerData(consuming: bytes, file: "tds.json", keepingEntityRecords: false) { bytes }
            require(false, "parsed giving its bytes back, a tds the parse refuses (\(error)) is accepted")
        } catch let consumingError {
            require(consumingError == error, "parsed giving its bytes back: \(consumingError), not \(error)")
        }
        return 0
    }
    var withoutEntities = trackerData
    withoutEntities.entities = [:]
    require(
        (try? TrackerData(consuming: bytes, file: "tds.json", keepingEntityRecords: false) { bytes }) == withoutEntities,
        "parsed giving its bytes back, without entity records, another value")
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
