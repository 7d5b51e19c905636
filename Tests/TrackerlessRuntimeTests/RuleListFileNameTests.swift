import Testing
import TrackerlessRuntime

/// One naming of a set's lists as files, for `rules`, `scripts`, the build plugin and the tests.
@Suite("Rule list file names")
struct RuleListFileNameTests {
    @Test("blocking and cookie lists numbered within their kind, Click-to-Load lists within their action")
    func names() {
        let names = EncodedRuleList.fileNames(of: [
            (.blocking, nil), (.clickToLoad, "block-ctl-fb"), (.blocking, nil), (.cookies, nil), (.cookies, nil),
            (.clickToLoad, "block-ctl/../x y"), (.clickToLoad, "block-ctl-fb"), (.clickToLoad, "block-ctl-yt"),
        ])
        #expect(names == [
            "rules.json", "rules.block-ctl-fb.json", "rules.2.json", "cookies.json", "cookies.2.json", "rules.block-ctl____x_y.json",
            "rules.block-ctl-fb.2.json", "rules.block-ctl-yt.json",
        ])
    }
}
