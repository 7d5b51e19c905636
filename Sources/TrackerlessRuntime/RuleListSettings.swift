import ContentRuleList
public import RuleBuilder

/// How a build writes its rule lists (the blocking, Click-to-Load and cookie lists): the
/// settings `trackerless rules` and `trackerless cookies` take as options, so a host and the
/// command line build the same lists for the same settings. The WebKit the lists are for is
/// ``ProtectionInputs/webKit``.
///
/// Part of ``ProtectionSet/identity`` when it differs from the default: the default settings
/// keep the identity of a set built before they existed.
///
/// ```swift
/// var inputs = ProtectionInputs(trackerData: .file("tds.json"))
/// inputs.ruleLists.siteConditionStyle = .ifDomain
/// inputs.ruleLists.maximumRulesPerList = 50_000
/// ```
public struct RuleListSettings: Sendable, Hashable {
    /// The builder's own defaults, which these settings start from.
    private static let builderDefaults = RuleListBuilder.Settings()

    /// How a condition on the page's site is written: `if-top-url`, anchored at the page's host
    /// (the default, the resolver's meaning), or WebKit's own `if-domain`.
    public var siteConditionStyle = builderDefaults.siteConditionStyle
    /// Whether a rule also matches where its text appears in the path or query of a tracker
    /// URL, as the resolver does: exact, and about doubles WebKit's compile time. Off by default.
    public var matchesRuleTextAfterHost = builderDefaults.matchesRuleTextAfterHost
    /// The most rules in one list: from 1 to 150,000, the default and WebKit's maximum. A
    /// target whose WebKit takes fewer in a list gets its own maximum.
    public var maximumRulesPerList = RuleList.maximumRuleCount
    /// The most JSON bytes in one list (at least 2); nil (the default) for the target's budget
    /// (19,000,000 bytes, 10,000,000 for Safari 17). Lists are split to stay within it; a part
    /// that cannot be split and is larger is refused.
    public var maximumBytesPerList = builderDefaults.maximumBytesPerList
    /// Whether the companies whose trackers' sections repeat the most site entries get lists of
    /// their own for WebKit's compile time (`RuleListBuilder.Settings.entityListsForMostSiteEntries`):
    /// on by default, for a host that installs every list of the set. Off, only a company over
    /// `RuleListBuilder.Settings.minimumBytesSavedByEntityList` gets lists of its own, so that
    /// rules that fit one list stay one list: `trackerless rules` turns it off where it writes
    /// one file or standard output (apple-tds.json: one list, against 21 with it on). The lists
    /// block and allow the same loads either way, except a tracker's final-dot host
    /// (`tracker.com.`) on its own company's site, which a company's own list allows, as the
    /// resolver does (the RuleBuilder article "Keeping the resolver's meaning").
    public var entityListsForCompileTime = true

    /// The default settings.
    public init() {}

    /// Checks the values no list can be built with: ``maximumRulesPerList`` outside 1 …
    /// 150,000, ``maximumBytesPerList`` under 2. A build checks them before it reads anything
    /// (``ProtectionError/invalidInput(_:detail:)`` for ``ProtectionInput/ruleListSettings``),
    /// and `trackerless rules`, `cookies` and `scripts` check their options with it.
    ///
    /// - Throws: ``RuleListSettingsError`` naming the setting.
    public func validate() throws(RuleListSettingsError) {
        guard (1...RuleList.maximumRuleCount).contains(maximumRulesPerList) else {
            throw RuleListSettingsError(
                setting: "maximumRulesPerList", range: "from 1 to \(RuleList.maximumRuleCount)", value: maximumRulesPerList)
        }
        if let maximum = maximumBytesPerList, maximum < 2 {
            throw RuleListSettingsError(setting: "maximumBytesPerList", range: "at least 2", value: maximum)
        }
    }

    /// The rule list builder's settings for `target`. `recordingSources`: whether the build says
    /// where each rule came from; the lists are the same either way.
    func builderSettings(target: WebKitTarget, recordingSources: Bool) -> RuleListBuilder.Settings {
        var settings = RuleListBuilder.Settings(
            siteConditionStyle: siteConditionStyle, matchesRuleTextAfterHost: matchesRuleTextAfterHost,
            maximumRulesPerList: maximumRulesPerList, target: target, maximumBytesPerList: maximumBytesPerList)
        settings.recordsRuleSources = recordingSources
        if !entityListsForCompileTime { settings.entityListsForMostSiteEntries = 0 }
        return settings
    }

    /// The settings as the set identity hashes them; nil for the default settings, which the
    /// identity leaves out.
    var identityText: String? {
        guard self != RuleListSettings() else { return nil }
        return "site-conditions \(siteConditionStyle.rawValue)\u{0}exact-path-matches \(matchesRuleTextAfterHost)\u{0}"
            + "max-rules \(maximumRulesPerList)\u{0}max-bytes \(maximumBytesPerList.map(String.init) ?? "target")"
            // Left out when on, so that the text of settings made before it is unchanged.
            + (entityListsForCompileTime ? "" : "\u{0}entity-lists-for-compile-time false")
    }
}
