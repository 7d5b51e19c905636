import TrackerlessCore

/// The `clickToLoad` feature: which `block-ctl-*` rule actions of the tds block, and for whom.
extension PrivacyConfiguration {
    /// One entity of the `clickToLoad` feature's `settings`
    /// (`"Facebook, Inc.": {"state": "enabled", "ruleActions": ["block-ctl-fb"]}`).
    public struct ClickToLoadEntity: Sendable, Hashable {
        /// Whether its `state` is `enabled`: only then do its rule actions block.
        public var isEnabled: Bool
        /// Its Click-to-Load rule actions, such as `block-ctl-fb`.
        public var ruleActions: [String]

        /// Creates an entry.
        public init(isEnabled: Bool, ruleActions: [String]) {
            self.isEnabled = isEnabled
            self.ruleActions = ruleActions
        }
    }

    /// The entities of the `clickToLoad` feature's `settings`, by entity name (the names of
    /// tds.json's `entities`). Entries that are not objects or have no `ruleActions` array are
    /// skipped, and so are actions that are not strings.
    public var clickToLoadEntities: [String: ClickToLoadEntity] {
        guard let settings = features[FeatureName.clickToLoad]?.settingsText else { return [:] }
        var entities: [String: ClickToLoadEntity] = [:]
        for (name, entity) in settings.members {
            guard let actions = entity.member("ruleActions"), actions.kind == .array else { continue }
            let ruleActions = actions.elements.compactMap(\.string)
            var isEnabled = false
            if let state = entity.member("state")?.string { isEnabled = Feature.State(rawValue: state) == .enabled }
            entities[name] = ClickToLoadEntity(isEnabled: isEnabled, ruleActions: ruleActions)
        }
        return entities
    }

    /// The Click-to-Load rule actions that block at all: those of the enabled entities, when the
    /// `clickToLoad` feature is enabled; none otherwise.
    public var supportedClickToLoadRuleActions: Set<String> {
        guard features[FeatureName.clickToLoad]?.state == .enabled else { return [] }
        var actions: Set<String> = []
        for entity in clickToLoadEntities.values where entity.isEnabled { actions.formUnion(entity.ruleActions) }
        return actions
    }
}
