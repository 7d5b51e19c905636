import Testing
import TrackerDataKit

@Suite("Surrogates")
struct SurrogatesTests {
    @Test("blocks are separated by blank lines and named by their last path segment")
    func parsing() {
        let text = """
            # comment
            # another
            google-analytics.com/analytics.js application/javascript
            (() => {
                'use strict';
            })();

            example.com/noop.js application/javascript
            (() => {})();
            """
        let surrogates = Surrogates(parsing: text)
        #expect(surrogates.surrogates.map(\.name) == ["analytics.js", "noop.js"])
        #expect(surrogates["analytics.js"]?.path == "google-analytics.com/analytics.js")
        #expect(surrogates["analytics.js"]?.contentType == "application/javascript")
        #expect(surrogates["analytics.js"]?.source == "(() => {\n    'use strict';\n})();")
        #expect(surrogates.warnings.isEmpty)
    }

    @Test("the data URL is base64 of the source")
    func dataURL() {
        let surrogate = Surrogates.Surrogate(
            name: "tracker", path: "surrogates.test/tracker", contentType: "application/javascript",
            source: "(function() {window.surrogate1=true})();")
        #expect(surrogate.dataURL == "data:application/javascript;base64,KGZ1bmN0aW9uKCkge3dpbmRvdy5zdXJyb2dhdGUxPXRydWV9KSgpOw==")
    }

    @Test("a block without a header line is skipped with a warning")
    func malformed() {
        let surrogates = Surrogates(parsing: "not a header\nbody\n\na.com/b.js application/javascript\nok\r\n", file: "s.txt")
        #expect(surrogates.surrogates.map(\.name) == ["b.js"])
        #expect(surrogates["b.js"]?.source == "ok")
        #expect(surrogates.warnings.map(\.description) == [
            #"s.txt: line 1: expected "<domain>/<name> <content type>" to start a surrogate; block skipped"#
        ])
    }

    @Test("a UTF-8 byte order mark before the first header is skipped, not read as part of it")
    func byteOrderMark() {
        let surrogates = Surrogates(parsing: "\u{FEFF}a.com/b.js application/javascript\nok\n", file: "s.txt")
        #expect(surrogates.surrogates.map(\.name) == ["b.js"])
        #expect(surrogates["b.js"]?.path == "a.com/b.js")
        #expect(surrogates.warnings.isEmpty, "\(surrogates.warnings)")
    }

    @Test("empty input")
    func empty() {
        #expect(Surrogates(parsing: "").surrogates.isEmpty)
        #expect(Surrogates(parsing: "\n\n# only comments\n").surrogates.isEmpty)
    }
}
