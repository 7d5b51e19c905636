import ContentRuleList
import DisconnectLists
import FuzzSupport

/// Disconnect's lists as Firefox downloads them (shavar): the first byte chooses the format, the
/// rest is the file. 0: `disconnect-blacklist.json`; 1: `disconnect-entitylist.json`; 2: a
/// normalized list (`ads-track-digest256.json`, an array of domains).
///
/// Invariants: parsing never traps; the Firefox rule lists built from a parsed blocklist (with a
/// fixed entity list) pass the project's own validator.
@_cdecl("LLVMFuzzerTestOneInput")
public func disconnectListsFuzzer(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    guard let (format, bytes) = FuzzInput.format(start, count, of: 3) else { return 0 }
    switch format {
    case 0:
        guard let list = try? DisconnectList(parsing: bytes) else { return 0 }
        checkRuleLists(CategoryLists(list), DisconnectFixture.entityList)
    case 1:
        guard let entities = try? EntityList(parsing: bytes) else { return 0 }
        for url in FuzzRequests.urls { _ = entities.owner(of: FuzzRequests.host(of: url)) }
    default:
        guard let domains = try? CategoryLists.parseNormalizedList(bytes, file: "ads-track-digest256.json") else { return 0 }
        checkRuleLists(CategoryLists(domains: [.advertising: domains]), DisconnectFixture.entityList)
    }
    return 0
}

private func checkRuleLists(_ lists: CategoryLists, _ entities: EntityList) {
    for (blocklist, ruleList) in FirefoxRuleListBuilder(categoryLists: lists, entityList: entities).ruleLists() {
        do throws(RuleListError) {
            try ruleList.validate()
        } catch {
            fatalError("the \(blocklist) list built from the input fails validation: \(error)")
        }
    }
}

private enum DisconnectFixture {
    static let entityList = EntityList(entities: [
        EntityList.Entity(name: "Tracker Inc", properties: ["tracker.example", "site.example"], resources: ["tracker.example"]),
    ])
}
