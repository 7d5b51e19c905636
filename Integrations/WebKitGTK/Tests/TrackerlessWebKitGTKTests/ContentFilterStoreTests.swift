import CWebKitGTK
import Foundation
import Testing
import TrackerlessWebKitGTK

@Suite("The content filter store refuses what WebKit would, leaving nothing behind")
struct ContentFilterStoreTests {
    /// The `ContentRuleList-*` files in the temporary directory, where WebKit's compiler writes.
    static func temporaries() -> Set<String> {
        let directory = ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp"
        return Set(((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasPrefix("ContentRuleList-") })
    }

    @Test("a list the running WebKit refuses: WebKit's words, and no ContentRuleList-* temporary left")
    func refusedList() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("filter-store-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let before = Self.temporaries()
        let store = ContentFilterStore(directory: directory.path)
        var result: Result<ContentFilter, ContentFilterStoreError>?
        store.save(identifier: "refused", source: Array(#"[{"trigger":{"url-filter":"a|b"},"action":{"type":"block"}}]"#.utf8)) {
            result = $0
        }
        let deadline = Date().addingTimeInterval(30)
        while result == nil, Date() < deadline { g_main_context_iteration(nil, 0) == 0 ? Thread.sleep(forTimeInterval: 0.01) : () }
        guard case .failure(.invalidSource(identifier: "refused", let message))? = result else {
            Issue.record("not refused as an invalid source: \(String(describing: result))")
            return
        }
        #expect(message.contains("Invalid or unsupported regular expression."), "\(message)")
        // Other tests compile in this process at the same time, each through a temporary of its
        // own that lives until its list is saved: wait for those to go; one the refused list
        // left behind stays.
        var left = Self.temporaries().subtracting(before)
        let settled = Date().addingTimeInterval(60)
        while !left.isEmpty, Date() < settled {
            Thread.sleep(forTimeInterval: 0.1)
            left = left.intersection(Self.temporaries())
        }
        #expect(left.isEmpty, "left behind: \(left.sorted())")
    }
}
