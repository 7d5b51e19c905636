import TrackerDataKit
import TrackerlessCore

/// The blocklists behind the Click-to-Load split: the main list's, without any `block-ctl-*`
/// rule, and one per Click-to-Load rule action, with only what that action's list must block.
extension TrackerData {
    /// The Click-to-Load rule actions of the tds rules, sorted.
    var clickToLoadActions: [String] {
        var actions: Set<String> = []
        for tracker in trackers.values {
            for rule in tracker.rules {
                if case .blockClickToLoad(let action)? = rule.action { actions.insert(action) }
            }
        }
        return actions.sorted()
    }

    /// The blocklist of one Click-to-Load list: what makes the resolver block a request by a
    /// rule with `action` and nothing else.
    ///
    /// A tracker with such rules keeps its rules up to the last of them, with no default block
    /// (the main list has it): the rules with `action` block, rules of other Click-to-Load
    /// actions are left out (their own lists block, or they are skipped), and every other rule
    /// before becomes `ignore` over its `options`, since a rule that comes first decides in the
    /// main list. Trackers nested in such a tracker stay, without rules, so that their section
    /// still cancels the outer tracker's rules on their hosts; CNAMEs stay only for such a
    /// tracker.
    func clickToLoadView(for action: String) -> TrackerData {
        var data = self
        var kept: [String: Tracker] = [:]
        // By index, so that a tracker is copied only when kept: iterating the pairs copied every
        // tracker of the blocklist for each action.
        for index in trackers.indices {
            let rules = trackers.values[index].rules
            guard let last = rules.lastIndex(where: { $0.isClickToLoad(action) }) else { continue }
            var view = trackers.values[index]
            view.defaultAction = .ignore
            view.rules = rules[...last].map { rule in
                if rule.isClickToLoad(action) { return rule }
                if rule.isClickToLoad { return rule.neverApplying }
                if case .unsupported? = rule.action { return rule.neverApplying }
                return Tracker.Rule(rule: rule.rule, action: .ignore, options: rule.options)
            }
            kept[trackers.keys[index]] = view
        }
        let blocking = Set(kept.keys)
        if !kept.isEmpty {
            for key in trackers.keys where kept[key] == nil && DomainName.firstParentDomain(of: key, where: { kept[$0] != nil }) != nil {
                var view = trackers[key]!
                view.defaultAction = .ignore
                view.rules = []
                kept[key] = view
            }
        }
        // The key of the tracker a host belongs to (as ``TrackerData/tracker(forHost:)`` finds
        // it), without copying the tracker.
        let all = trackers
        func trackerKey(forHost host: String) -> String? {
            DomainName.firstSuffix(of: host) { all.index(forKey: $0) != nil ? $0 : nil }
        }
        data.cnames = cnames.filter { cloaked, target in
            trackerKey(forHost: target).map(blocking.contains) == true && trackerKey(forHost: cloaked) == nil
        }
        data.trackers = kept
        return data
    }
}

extension Tracker {
    /// The tracker's rules without its `block-ctl-*` rules, as the main lists have them: each
    /// made one that never applies (``Tracker/Rule/neverApplying``), as the resolver skips an
    /// unblocked one and the next rule or the default decides. Its own rules when it has none.
    var rulesWithoutClickToLoad: [Rule] {
        guard rules.contains(where: \.isClickToLoad) else { return rules }
        return rules.map { $0.isClickToLoad ? $0.neverApplying : $0 }
    }
}

extension Tracker.Rule {
    /// The `block-ctl-*` action of the rule, if it has one.
    var clickToLoadAction: String? {
        if case .blockClickToLoad(let action)? = action { return action }
        return nil
    }

    /// Whether the rule has a `block-ctl-*` action.
    var isClickToLoad: Bool { clickToLoadAction != nil }

    /// Whether the rule's action is the `block-ctl-*` action `name`, compared in place.
    func isClickToLoad(_ name: String) -> Bool {
        if case .blockClickToLoad(let action)? = action { return action == name }
        return false
    }

    /// The rule in its place but applying nowhere (`options` whose empty domain list matches no
    /// site), so that the rules after it keep their indices in the build report.
    var neverApplying: Tracker.Rule {
        Tracker.Rule(rule: rule, action: .ignore, options: Condition(domains: [], types: nil))
    }
}
