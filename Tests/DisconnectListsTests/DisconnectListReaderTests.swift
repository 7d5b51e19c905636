@testable import DisconnectLists
import Testing
import TrackerlessCore
import TrackerlessTestSupport

/// The Disconnect lists are read by `JSONReader`, no longer through a JSON tree. These tests hold
/// the reader to the tree decoder it replaced (`TreeDisconnectListDecoder`): the same lists for
/// good input, the same error (kind, path, message, line and column) for bad.
@Suite("Reading Disconnect's lists directly, as the tree decoder did")
struct DisconnectListReaderTests {
    /// Services with tags and paths, an entity with duplicate keys and upper case, escapes.
    static let entityList = #"""
        {"license": "x", "entities": {
          "Big Co": {"properties": ["bigco.example", "BigCo-News.example"], "resources": ["bigco-cdn.example"], "x": 1},
          "Dup\u0020Co": {"resources": ["a.example"], "properties": [], "properties": ["b.example"]},
          "Empty": {"properties": [], "resources": []}
        }}
        """#

    /// Whether the reader and the tree decoder make the same of `bytes` as a list of `kind`
    /// (the same list, or the same error), and what each made of it.
    static func outcomes(_ kind: String, _ bytes: [UInt8]) -> (agree: Bool, reader: String, tree: String) {
        switch kind {
        case "disconnect":
            compare({ () throws(DisconnectListError) in try DisconnectList(parsing: bytes, file: "list.json") },
                    { () throws(DisconnectListError) in try TreeDisconnectListDecoder.disconnectList(bytes, file: "list.json") })
        case "entities":
            compare({ () throws(DisconnectListError) in try EntityList(parsing: bytes, file: "entities.json") },
                    { () throws(DisconnectListError) in try TreeDisconnectListDecoder.entityList(bytes, file: "entities.json") })
        default:
            compare({ () throws(DisconnectListError) in try CategoryLists.parseNormalizedList(bytes, file: "ads.json") },
                    { () throws(DisconnectListError) in try TreeDisconnectListDecoder.normalizedList(bytes, file: "ads.json") })
        }
    }

    /// Small lists of each kind, for the byte-by-byte mutations.
    static let documents: [(kind: String, json: String)] = [
        ("disconnect", #"{"categories": {"Advertising": [{"Ad Co": {"https://ad.example/": ["ad.example", "Ad-CDN.example/p"], "dnt": "eff"}}],"#
            + #" "Social": [{"S": {"u": ["social.example"]}, "T": {"v": []}}]}, "license": "x"}"#),
        ("entities", entityList),
        ("normalized", #"["b.example", "A.example/path", "c.example"]"#),
    ]

    /// Both results, compared whole (lists and errors are Equatable).
    private static func compare<T: Equatable>(
        _ reader: () throws(DisconnectListError) -> T, _ tree: () throws(DisconnectListError) -> T
    ) -> (agree: Bool, reader: String, tree: String) {
        let fromReader = Result(catching: reader)
        let fromTree = Result(catching: tree)
        return (fromReader == fromTree, "\(fromReader)", "\(fromTree)")
    }

    private static func expectAgreement(_ kind: String, _ bytes: [UInt8], _ what: @autoclosure () -> String) {
        let outcome = outcomes(kind, bytes)
        #expect(outcome.agree, "\(kind), \(what()): reader \(outcome.reader), tree \(outcome.tree)")
    }

    @Test("the example lists read the same")
    func examples() throws {
        let lists = Self.documents + [("disconnect", ExampleLists.disconnectList), ("entities", ExampleLists.entityList)]
        for (kind, json) in lists {
            let bytes = Array(json.utf8)
            Self.expectAgreement(kind, bytes, "as written")
            #expect(Self.outcomes(kind, bytes).reader.hasPrefix("success("), "\(kind) reads")
        }
    }

    @Test("every truncation gives the same error")
    func truncations() {
        for (kind, json) in Self.documents {
            DocumentMutations.eachTruncation(of: Array(json.utf8)) { Self.expectAgreement(kind, $0, $1) }
        }
    }

    @Test("every byte deleted or replaced gives the same result or error")
    func mutations() {
        let replacements = Array("\"1n{[]},: x.A".utf8)
        for (kind, json) in Self.documents {
            DocumentMutations.eachDeletionAndReplacement(of: Array(json.utf8), replacements: replacements) {
                Self.expectAgreement(kind, $0, $1)
            }
        }
    }

    /// Inputs where the order of problems matters, which a reader that cannot look ahead could
    /// get wrong.
    @Test("problems are reported in the tree decoder's order", arguments: [
        ("disconnect", #"{"categories": {"Adverts": []}, "categories": {"Advertising": []}}"#),
        ("disconnect", #"{"categories": {"Advertising": []}, "categories": 1}"#),
        ("disconnect", #"{"categories": {"Advertising": [{"A": {"u": ["co.uk"]}}]}, "license": [}"#),
        ("disconnect", #"{"license": "x"}"#),
        ("disconnect", #"{"categories": {"Advertising": [{"A": {"u": 1, "v": ["a..b"]}}]}}"#),
        ("entities", #"{"entities": {"A": {"resources": ["a..b"]}}}"#),
        ("entities", #"{"entities": {"A": {"resources": 1, "properties": ["a..b"]}}}"#),
        ("entities", #"{"entities": {"A": {"properties": ["a..b"], "properties": []}}}"#),
        ("entities", #"{"entities": 1, "entities": {}}"#),
        ("entities", #"{"entities": {}, "entities": {"A": 1}}"#),
        ("normalized", #"["co.uk", 1, ]"#),
    ])
    func order(kind: String, json: String) {
        Self.expectAgreement(kind, Array(json.utf8), json)
    }
}
