import ContentRuleList
import DisconnectLists
import Foundation
import RuleBuilder
import Testing
import TrackerDataKit
import TrackerlessTestSupport

/// Every list kind the SDK builds from the real blocklists (apple-tds.json: blocking,
/// Click-to-Load and cookie lists; Firefox's ten lists from Disconnect's), built for the oldest
/// target and for this WebKit's own, passes that target's validator and compiles in the WebKit
/// under test: what `trackerless rules` writes with no option, WebKitGTK 2.44, 2.50 and 2.54 all
/// compile (Scripts/test.sh runs this in each).
@Suite(
    "Every list kind from the real blocklists compiles in this WebKit",
    .enabled(if: WebKitHarness.shouldRun, "WebKitGTK (python3-gi, gir1.2-webkit2-4.x, xvfb) is not installed"),
    .enabled(if: SharedData.shouldRun, SharedData.skipMessage))
struct RealListsInWebKitTests {
    @Test("apple-tds.json's blocking, Click-to-Load and cookie lists and Firefox's lists, for the oldest target and this WebKit's")
    func compiles() throws {
        let harness = try #require(try WebKitHarness.make(), "WebKitGTK is not installed")
        let tds = try TrackerData(contentsOfFile: SharedData.path("tds/apple-tds.json"))
        let firefox = try FirefoxListInputs(lists: SharedData.path("shavar/firefox-ios-pinned-107.0"), entities: nil)
        var lists: [(id: String, target: WebKitTarget, list: RuleList)] = []
        for target in Set([WebKitTarget.oldest, WebKitHarness.target]).sorted(by: { $0.name < $1.name }) {
            let settings = RuleListBuilder.Settings(target: target)
            let blocking = RuleListBuilder(trackerData: tds, settings: settings).build()
            #expect(blocking.clickToLoadActions.compactMap { $0 }.count == 2, "\(target): the Click-to-Load lists")
            for (index, list) in blocking.ruleLists.enumerated() {
                lists.append(("\(target) blocking \(index) \(blocking.clickToLoadActions[index] ?? "")", target, list))
            }
            for (index, list) in CookieRules(trackerData: tds, settings: settings).build().ruleLists.enumerated() {
                lists.append(("\(target) cookies \(index)", target, list))
            }
            for (blocklist, list) in FirefoxRuleListBuilder(
                categoryLists: firefox.categoryLists, entityList: firefox.entityList, target: target
            ).ruleLists() {
                lists.append(("\(target) \(blocklist.fileName)", target, list))
            }
        }
        for entry in lists {
            #expect(try entry.list.validate(for: entry.target).isEmpty, "\(entry.id): a key the target ignores")
        }
        let results = try harness.compile(lists.map { (id: $0.id, json: $0.list.encoded()) })
        let version = (try? WebKitHarness.version()).map(\.description) ?? "?"
        for entry in lists {
            let result = try #require(results[entry.id])
            #expect(result.ok, "WebKitGTK \(version) refuses \(entry.id): \(result.error ?? "")")
        }
        let seconds = lists.compactMap { results[$0.id]?.seconds }.reduce(0, +)
        print("RealListsInWebKitTests: WebKitGTK \(version) compiled \(lists.count) lists in \(String(format: "%.1f", seconds)) s")
    }
}
