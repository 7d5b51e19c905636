public import ContentRuleList

/// The result of ``RuleListBuilder/build()``.
public struct RuleListBuild: Sendable, Hashable {
    /// The lists to install, all of them, in WebKit (or the engine): the main lists first, then
    /// one list per Click-to-Load rule action.
    public var ruleLists: [RuleList]
    /// What was left out or approximated, with where it came from.
    public var report: BuildReport
    /// The Click-to-Load rule action of each list of ``ruleLists``, in the same order: nil for a
    /// main list, the action (`block-ctl-fb`) for the list that blocks that action's embeds.
    public var clickToLoadActions: [String?]
    /// Why there are no lists: the configuration's rules, which end every list, cannot fit
    /// beside the trackers' rules. Nil when the lists were built. A host keeps the lists it has
    /// and shows the description, which names the configuration's parts and their counts.
    public var refusal: RuleListBuildError?
    /// The input each rule came from, list by list, parallel to each list's rules: what an
    /// action named by list and rule index was made of. Empty for a build made by
    /// ``init(ruleLists:report:clickToLoadActions:)``, which does not know, and for one whose
    /// builder was told not to record them (``RuleListBuilder/Settings/recordsRuleSources``).
    public var sources: [[RuleSource]] = []

    /// A build of `ruleLists`; `clickToLoadActions` nil means they are all main lists.
    public init(ruleLists: [RuleList], report: BuildReport, clickToLoadActions: [String?]? = nil) {
        self.ruleLists = ruleLists
        self.report = report
        self.clickToLoadActions = clickToLoadActions ?? ruleLists.map { _ in nil }
    }

    /// A build that made no lists, and why.
    init(refusal: RuleListBuildError, report: BuildReport) {
        self.init(ruleLists: [], report: report)
        self.refusal = refusal
    }

    /// The rules of all lists.
    public var ruleCount: Int { ruleLists.reduce(0) { $0 + $1.rules.count } }

    /// The lists for a page where the user clicked to load the embeds of `actions`: every list
    /// but those actions' Click-to-Load lists.
    public func ruleLists(unblocking actions: Set<String>) -> [RuleList] {
        zip(ruleLists, clickToLoadActions).compactMap { list, action in
            action.map(actions.contains) == true ? nil : list
        }
    }
}
