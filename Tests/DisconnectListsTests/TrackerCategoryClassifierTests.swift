import ContentRuleList
import DisconnectLists
import Testing
import TrackerlessCore

@Suite("Tracker categories for the stats")
struct TrackerCategoryClassifierTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var url: String
        var page: String
        var category: FirefoxCategory?
        var testDescription: String { "\(url) on \(page)" }
    }

    static let cases: [Case] = [
        Case(url: "https://ads.example/a.js", page: "https://news.example/", category: .advertising),
        Case(url: "http://pixel.counter.example/p.gif", page: "https://news.example/", category: .analytics),
        // counter.example is also a fingerprinter; analytics comes first, as in Firefox.
        Case(url: "https://videos.example/embed", page: "https://news.example/", category: .content),
        Case(url: "https://miner.example/m.js", page: "https://news.example/", category: .cryptomining),
        Case(url: "https://yandex.example/clck/click?x=1", page: "https://news.example/", category: .analytics),
        Case(url: "https://yandex.example/other", page: "https://news.example/", category: nil),
        Case(url: "https://ads.example.evil.net/a.js", page: "https://news.example/", category: nil),
        Case(url: "https://ads.example/a.js", page: "https://ads.example/", category: nil),
        Case(url: "https://bigco-stats.example/s.js", page: "https://bigco-news.example/", category: nil),
        Case(url: "https://bigco-stats.example/s.js", page: "https://news.example/", category: .analytics),
        Case(url: "wss://ads.example/socket", page: "https://news.example/", category: nil),
        Case(url: "https://mailer.example/open.gif", page: "https://news.example/", category: nil),
        Case(url: "not a url", page: "https://news.example/", category: nil),
    ]

    @Test("a blocked URL maps to its first category", arguments: cases)
    func classification(_ testCase: Case) throws {
        let lists = CategoryLists(try ExampleLists.parsedDisconnectList())
        let classifier = TrackerCategoryClassifier(categoryLists: lists, entityList: try ExampleLists.parsedEntityList())
        #expect(classifier.category(of: testCase.url, topURL: testCase.page) == testCase.category)
    }

    @Test("the classifier agrees with the strict and content block lists on the examples", arguments: cases)
    func agreesWithRuleLists(_ testCase: Case) throws {
        let lists = CategoryLists(try ExampleLists.parsedDisconnectList())
        let builder = FirefoxRuleListBuilder(categoryLists: lists, entityList: try ExampleLists.parsedEntityList())
        let classifier = TrackerCategoryClassifier(categoryLists: lists, entityList: try ExampleLists.parsedEntityList())
        let request = Request(url: testCase.url, topURL: testCase.page, resourceType: .script)
        let blockedBy = try FirefoxCategory.classificationOrder.first { category in
            try ReferenceEvaluator(ruleList: builder.ruleList(for: FirefoxBlocklist(.block, category)))
                .actions(for: request).isBlocked
        }
        #expect(classifier.category(for: request) == blockedBy)
    }
}
