import Testing
import TrackerlessCore

@Suite("String.excerpt")
struct ExcerptTests {
    @Test("short text is whole; long text keeps its first characters and says how long it was")
    func excerpt() {
        #expect("abc".excerpt(limit: 3) == "abc")
        #expect("abcd".excerpt(limit: 3) == "abc… (4 bytes in all)")
        #expect("ééé".excerpt(limit: 3) == "ééé", "characters, not bytes, are counted")
        #expect(String(repeating: "a", count: 10_000_000).excerpt().utf8.count < 200)
        #expect("x\u{FEFF}".droppingByteOrderMark() == "x\u{FEFF}")
        #expect("\u{FEFF}x".droppingByteOrderMark() == "x")
    }

    @Test("a JSON path quotes a long key cut")
    func longKeyInPath() {
        let path = JSONPath.root.appending(key: "trackers").appending(key: String(repeating: "a", count: 1_000_000))
        #expect(path.description.utf8.count < 200)
        #expect(path.description.hasPrefix(#"trackers["aaaa"#))
    }
}
