import DisconnectLists
import Testing
import TrackerlessCore

@Suite("Reading Disconnect's lists")
struct DisconnectListParsingTests {
    @Test("services keep their category, domains and tags")
    func services() throws {
        let list = try ExampleLists.parsedDisconnectList()
        let counter = try #require(list.services.first { $0.name == "Counter" && $0.category == .analytics })
        #expect(counter.domains.map(\.description) == ["counter.example"])
        #expect(counter.tags == ["performance": "true"])
        #expect(list.services.contains { $0.name == "Polite Stats" && $0.honorsDoNotTrack })
        #expect(list.domains(in: .advertising).map(\.description) == ["ads.example", "adserver.example", "bigco-ads.example"])
    }

    @Test("a domain with a path keeps the path")
    func pathEntry() throws {
        let domain = try #require(TrackerDomain("Yandex.example/clck/click"))
        #expect(domain.host == "yandex.example")
        #expect(domain.path == "/clck/click")
        #expect(domain.description == "yandex.example/clck/click")
    }

    @Test("the entity list is read with lowercase domains")
    func entities() throws {
        let entities = try ExampleLists.parsedEntityList()
        let bigCo = try #require(entities.entities.first { $0.name == "Big Co" })
        #expect(bigCo.properties == ["bigco.example", "bigco-news.example", "bigco-shop.example"])
    }

    struct BadInput: CustomTestStringConvertible, Sendable {
        var name: String
        var json: String
        var expected: String
        var testDescription: String { name }
    }

    static let badDisconnectLists: [BadInput] = [
        BadInput(name: "not JSON", json: #"{"categories": "#, expected: "list.json: line 1, column 16: "),
        BadInput(
            name: "no categories", json: #"{"license": "x"}"#,
            expected: #"list.json: (root): missing required member "categories""#),
        BadInput(
            name: "category not an array", json: #"{"categories": {"Advertising": {}}}"#,
            expected: "list.json: categories.Advertising: expected an array, found an object"),
        BadInput(
            name: "unknown category", json: #"{"categories": {"Adverts": []}}"#,
            expected: #"list.json: categories.Adverts: unknown category "Adverts"; known categories: Advertising"#),
        BadInput(
            name: "domain not a string",
            json: #"{"categories": {"Advertising": [{"A": {"https://a.example/": ["a.example", 3]}}]}}"#,
            expected: #"list.json: categories.Advertising[0].A["https://a.example/"][1]: expected a string, found a number"#),
        BadInput(
            name: "domain with a space",
            json: #"{"categories": {"Advertising": [{"A": {"https://a.example/": ["a .example"]}}]}}"#,
            expected: #"list.json: categories.Advertising[0].A["https://a.example/"][0]: "a .example" is not a domain name"#),
        BadInput(
            name: "public suffix",
            json: #"{"categories": {"Advertising": [{"A": {"https://a.example/": ["co.uk"]}}]}}"#,
            expected: #"list.json: categories.Advertising[0].A["https://a.example/"][0]: "co.uk" is a public suffix (ICANN section)"#),
        BadInput(
            name: "service not an object", json: #"{"categories": {"Advertising": [{"A": []}]}}"#,
            expected: "list.json: categories.Advertising[0].A: expected an object, found an array"),
    ]

    @Test("bad Disconnect lists are rejected with the file and the JSON path", arguments: badDisconnectLists)
    func badDisconnectList(_ input: BadInput) {
        #expect {
            try DisconnectList(parsing: Array(input.json.utf8), file: "list.json")
        } throws: { error in
            "\(error)".hasPrefix(input.expected)
        }
    }

    static let badEntityLists: [BadInput] = [
        BadInput(name: "not JSON", json: "[", expected: "entities.json: line 1, column 2: "),
        BadInput(
            name: "no resources", json: #"{"entities": {"A": {"properties": ["a.example"]}}}"#,
            expected: #"entities.json: entities.A: missing required member "resources""#),
        BadInput(
            name: "properties not an array",
            json: #"{"entities": {"A": {"properties": "a.example", "resources": []}}}"#,
            expected: "entities.json: entities.A.properties: expected an array, found a string"),
        BadInput(
            name: "resource not a domain",
            json: #"{"entities": {"A": {"properties": [], "resources": ["a..example"]}}}"#,
            expected: #"entities.json: entities.A.resources[0]: "a..example" is not a domain name"#),
    ]

    @Test("bad entity lists are rejected with the file and the JSON path", arguments: badEntityLists)
    func badEntityList(_ input: BadInput) {
        #expect {
            try EntityList(parsing: Array(input.json.utf8), file: "entities.json")
        } throws: { error in
            "\(error)".hasPrefix(input.expected)
        }
    }

    @Test("a normalized list is an array of domains")
    func normalizedList() throws {
        let domains = try CategoryLists.parseNormalizedList(Array(#"["b.example", "a.example"]"#.utf8), file: "ads.json")
        #expect(domains.map(\.description) == ["b.example", "a.example"])
        #expect {
            try CategoryLists.parseNormalizedList(Array(#"["a.example", null]"#.utf8), file: "ads.json")
        } throws: { error in
            "\(error)" == "ads.json: [1]: expected a string, found null"
        }
        #expect {
            try CategoryLists.parseNormalizedList(Array(#"{"a": 1}"#.utf8), file: "ads.json")
        } throws: { error in
            "\(error)" == "ads.json: (root): expected an array, found an object"
        }
    }
}
