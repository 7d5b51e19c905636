public import RuleBuilder
public import ContentRuleList
import TrackerDataKit

/// The rule list stage of the one build (``ProtectionBuild``): the blocking lists and the cookie
/// lists of the inputs, with their ``ProtectionInputs/ruleLists`` settings and WebKit target.
/// The one build runs these steps beside its other work; `trackerless rules` and
/// `trackerless cookies` run the same steps, and nothing else, for the lists they write.
extension ParsedInputs {
    /// The blocking rule lists (the main lists, then one per Click-to-Load rule action), each
    /// checked as WebKit would check it: an input WebKit would refuse is left out and noted in
    /// the report, as the one build leaves it out.
    ///
    /// - Parameter recordingSources: whether the build says where each rule came from
    ///   (`RuleListBuild.sources`); the lists are the same either way.
    /// - Throws: ``ProtectionError/invalidInput(_:detail:)`` when the configuration's rules,
    ///   which end every list, cannot fit beside the trackers' rules, or a part is larger than the
    ///   byte budget (`RuleListBuild.refusal`).
    public func blockingRules(recordingSources: Bool = true) throws(ProtectionError) -> RuleListBuild {
        let builder = blockingRuleBuilder(recordingSources: recordingSources)
        let unchecked = builder.build(checkingTriggers: false)
        if let refusal = unchecked.refusal { throw Self.error(refusing: refusal) }
        return try checked(unchecked, isValid: areValid(unchecked), builder: builder)
    }

    /// ``blockingRules(recordingSources:)`` for a caller that needs the blocklist no more: each
    /// tracker's rules go once its section is made (`RuleListBuilder.buildLettingGoOfTrackerRules()`),
    /// so that they and the lists are not all alive at once, and these inputs are left without
    /// the blocklist's trackers. The lists are those of ``blockingRules(recordingSources:)``.
    ///
    /// - Parameters:
    ///   - recordingSources: as for ``blockingRules(recordingSources:)``.
    ///   - parsingAgain: the same inputs parsed anew, called only where a list fails the check (an
    ///     input WebKit would refuse), for the build that leaves such inputs out.
    /// - Throws: as ``blockingRules(recordingSources:)``, or what `parsingAgain` throws.
    public mutating func blockingRulesLettingGoOfTrackers(
        recordingSources: Bool = true, parsingAgain: () throws(ProtectionError) -> ParsedInputs
    ) throws(ProtectionError) -> RuleListBuild {
        var builder = blockingRuleBuilder(recordingSources: recordingSources)
        // The builder's copy of the trackers is then the only one: letting go of a tracker's rules
        // would otherwise copy the whole table first.
        trackerData.trackers = [:]
        let unchecked = builder.buildLettingGoOfTrackerRules()
        if let refusal = unchecked.refusal { throw Self.error(refusing: refusal) }
        guard !areValid(unchecked) else { return unchecked }
        let again = try parsingAgain()
        return try again.checked(unchecked, isValid: false, builder: again.blockingRuleBuilder(recordingSources: recordingSources))
    }

    /// ``blockingRulesLettingGoOfTrackers(recordingSources:parsingAgain:)`` that hands each main
    /// list to `handOver` as soon as it is packed and checked (WebKit accepts it), and lets go
    /// of it (`RuleListBuilder.buildLettingGoOfTrackerRules(handingOver:)`): the finished lists
    /// are not all alive at once. `handedOver` gives, for each list of `build.ruleLists`, the
    /// number of the list handed over in its place (`build.ruleLists` holds an empty list
    /// there), or nil where the list is there. Where a list fails the check, no more are
    /// handed over and the build is the one that leaves the refused input out, made from
    /// `parsingAgain`, with every list in it: `handedOver` is then nil, and what was handed over
    /// is no part of it. The sources are not recorded.
    ///
    /// - Throws: as ``blockingRulesLettingGoOfTrackers(recordingSources:parsingAgain:)``; a list
    ///   may have been handed over before (the refusal is known once all are packed).
    public mutating func blockingRulesLettingGoOfTrackers(
        parsingAgain: () throws(ProtectionError) -> ParsedInputs, handingOver handOver: (_ number: Int, _ list: RuleList) -> Void
    ) throws(ProtectionError) -> (build: RuleListBuild, handedOver: [Int?]?) {
        var builder = blockingRuleBuilder(recordingSources: false)
        // As in blockingRulesLettingGoOfTrackers(recordingSources:parsingAgain:).
        trackerData.trackers = [:]
        let target = webKit
        var isRefused = false
        let (unchecked, handedOver) = builder.buildLettingGoOfTrackerRules { number, list in
            guard !isRefused else { return }
            guard (try? list.validateTriggers(for: target)) != nil else {
                isRefused = true
                return
            }
            handOver(number, list)
        }
        if let refusal = unchecked.refusal { throw Self.error(refusing: refusal) }
        // The lists held in the build; those handed over were checked before.
        let heldAreValid = zip(unchecked.ruleLists, handedOver).allSatisfy { list, number in
            number != nil || (try? list.validateTriggers(for: target)) != nil
        }
        if !isRefused, heldAreValid { return (unchecked, handedOver) }
        let again = try parsingAgain()
        return (try again.checked(unchecked, isValid: false, builder: again.blockingRuleBuilder(recordingSources: false)), nil)
    }

    /// The cookie rule lists (`block-cookies` on the loads whose cookies tracker-cookie
    /// protection strips); none where the configuration turns the protection off. Their
    /// triggers are checked, an input WebKit would refuse left out and noted.
    ///
    /// - Throws: ``ProtectionError/invalidInput(_:detail:)`` when the lists cannot be made
    ///   within the limits (`RuleListBuild.refusal`).
    public func cookieRules() throws(ProtectionError) -> RuleListBuild {
        let build = cookieRuleBuild()
        if let refusal = build.refusal { throw Self.error(refusing: refusal) }
        return build
    }

    /// The builder of the blocking lists.
    func blockingRuleBuilder(recordingSources: Bool = true) -> RuleListBuilder {
        RuleListBuilder(
            trackerData: trackerData, configuration: configuration, userAllowlist: userAllowlist,
            settings: ruleLists.builderSettings(target: webKit, recordingSources: recordingSources))
    }

    /// The cookie lists, refusal and all; none with the protection off (a list that changes
    /// nothing would still cost WebKit a look-up on every load).
    func cookieRuleBuild() -> RuleListBuild {
        guard CookieProtection.Settings(configuration: configuration).isEnabled else {
            return RuleListBuild(ruleLists: [], report: BuildReport())
        }
        return CookieRules(
            trackerData: trackerData, configuration: configuration, userAllowlist: userAllowlist,
            settings: ruleLists.builderSettings(target: webKit, recordingSources: true)
        ).build()
    }

    /// Whether WebKit accepts every trigger of `build`'s lists (`RuleList.validateTriggers(for:)`).
    func areValid(_ build: RuleListBuild) -> Bool {
        build.ruleLists.allSatisfy { (try? $0.validateTriggers(for: webKit)) != nil }
    }

    /// `unchecked` when WebKit accepts it; otherwise the lists built again with the check, which
    /// leaves the refused input out and says so.
    ///
    /// - Throws: ``ProtectionError/invalidInput(_:detail:)`` when the build with the check is
    ///   refused.
    func checked(_ unchecked: RuleListBuild, isValid: Bool, builder: RuleListBuilder) throws(ProtectionError) -> RuleListBuild {
        guard !isValid else { return unchecked }
        let build = builder.build()
        if let refusal = build.refusal { throw Self.error(refusing: refusal) }
        return build
    }

    /// The error of a refused build: the blocklist's when the part too large is a tracker's, the
    /// configuration's otherwise (its rules end every list).
    static func error(refusing refusal: RuleListBuildError) -> ProtectionError {
        if case .partExceedsByteBudget(_, let part, _, _) = refusal, part.hasPrefix("trackers") || part.hasPrefix("cnames") {
            return .invalidInput(.trackerData, detail: refusal.description)
        }
        return .invalidInput(.privacyConfiguration, detail: refusal.description)
    }
}
