import Testing
import TrackerlessRuntime

/// One naming of a set's lists as files, for `rules`, `scripts`, the build plugin and the tests.
@Suite("Rule list file names")
struct RuleListFileNameTests {
    @Test("blocking and cookie lists numbered within their kind, a Click-to-Load list by its action")
    func names() {
        let names = EncodedRuleList.fileNames(of: [
            (.blocking, nil), (.clickToLoad, "block-ctl-fb"), (.blocking, nil), (.cookies, nil), (.cookies, nil),
            (.clickToLoad, "block-ctl/../x y"),
        ])
        #expect(names == [
            "rules.json", "rules.block-ctl-fb.json", "rules.2.json", "cookies.json", "cookies.2.json", "rules.block-ctl____x_y.json",
        ])
    }
}
