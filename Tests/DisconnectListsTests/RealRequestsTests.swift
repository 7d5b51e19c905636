import ContentRuleList
import DisconnectLists
import Testing
import TrackerlessCore
import TrackerlessTestSupport

/// adblock-rust's 8,276 real requests through our lists and through Firefox's (modelled by
/// ``FirefoxGeneratorModel``) on the pinned 107.0 input, evaluated as WebKit does.
@Suite(
    "Real requests through Firefox's lists",
    .enabled(if: SharedData.shouldRun(SharedData.matchingTestRequests), SharedData.skipMessage))
struct RealRequestsTests {
    /// The requests as loads: on their page when it is a real one, else on a neutral page.
    static let requests: [Request] = MatchingTestRequest.all.map { request in
        let page = (CanonicalURL(request.sourceURL)?.host.isEmpty == false) ? request.sourceURL : "https://top-site.example/"
        return Request(url: request.url, topURL: page, resourceType: request.rawType == "image" ? .image : .script)
    }

    static let categoryOrder = FirefoxCategory.classificationOrder

    /// Our `block` lists in classification order, and Firefox's for the same input.
    static func lists() throws -> (ours: [RuleList], firefox: [RuleList], inputs: CategoryLists, entities: EntityList) {
        let inputs = try SharedDataTests.normalizedLists()
        let entities = try SharedDataTests.entityList(SharedDataTests.pinned)
        let builder = FirefoxRuleListBuilder(categoryLists: inputs, entityList: entities)
        let model = FirefoxGeneratorModel(entityList: entities)
        let ours = categoryOrder.map { builder.ruleList(for: FirefoxBlocklist(.block, $0)) }
        let firefox = categoryOrder.map { category in
            RuleList(inputs[category].map { domain in
                let rule = model.rule(for: domain.description)
                // Firefox takes any substring candidate; the first one stands for it here.
                let properties = rule.candidateOwners.first?.properties ?? []
                return ContentRule(
                    trigger: Trigger(
                        urlFilter: rule.urlFilter, loadTypes: [.thirdParty],
                        condition: properties.isEmpty ? nil : .unlessDomain(properties.map { "*" + $0 })),
                    action: .block)
            })
        }
        return (ours, firefox, inputs, entities)
    }

    @Test("ours blocks what Firefox's blocks, except URLs that only start like a tracker's host")
    func sameBlocking() throws {
        #expect(Self.requests.count == 8_276)
        let (ours, firefox, _, _) = try Self.lists()
        let ourEvaluator = try ReferenceEvaluator(ruleLists: ours)
        let firefoxEvaluator = try ReferenceEvaluator(ruleLists: firefox)
        var blocked = 0
        var firefoxOnly: [String] = []
        var oursOnly: [String] = []
        for request in Self.requests {
            let isOurs = ourEvaluator.actions(for: request).isBlocked
            let isFirefox = firefoxEvaluator.actions(for: request).isBlocked
            if isOurs { blocked += 1 }
            if isFirefox && !isOurs { firefoxOnly.append(request.url) }
            if isOurs && !isFirefox { oursOnly.append(request.url) }
        }
        #expect(blocked > 1_000, "\(blocked) blocked")
        #expect(oursOnly.isEmpty, "\(oursOnly)")
        // Each request only Firefox blocks has a host that starts like a tracker domain without
        // being it or under it, or a path entry's text past the host: the missing right anchor.
        let hostMatches = try Self.lists().inputs
        let domains = FirefoxCategory.listCategories.flatMap { hostMatches[$0] }
        for url in firefoxOnly {
            let host = CanonicalURL(url)?.host ?? ""
            let coveredHost = domains.contains { domain in
                domain.path == nil && (host == domain.host || host.hasSuffix("." + domain.host))
            }
            #expect(!coveredHost, "Firefox blocks \(url), whose host is a tracker's, and ours does not")
        }
        // adingo.jp is an advertising domain; eimg.jp is not.
        #expect(firefoxOnly == ["http://c.adingo.jp.eimg.jp"])
    }

    @Test("the classifier names the first list that blocks each real request")
    func classifierAgrees() throws {
        let (ours, _, inputs, entities) = try Self.lists()
        let evaluators = try ours.map { try ReferenceEvaluator(ruleList: $0) }
        let classifier = TrackerCategoryClassifier(categoryLists: inputs, entityList: entities)
        var disagreements: [String] = []
        for request in Self.requests {
            let blockedBy = zip(Self.categoryOrder, evaluators).first { $0.1.actions(for: request).isBlocked }?.0
            let category = classifier.category(for: request)
            if blockedBy != category {
                disagreements.append("\(request.url) on \(request.topURL): lists \(String(describing: blockedBy)), classifier \(String(describing: category))")
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(20))")
    }
}
