import ContentRuleList

extension RuleEngine {
    /// What the engine decided for one load.
    public struct Decision: Sendable, Hashable {
        /// Everything applied, list by list.
        public var appliedActions: AppliedActions

        init(_ applied: AppliedActions) {
            appliedActions = applied
        }

        /// Whether WebKit checks the load at all (not for invalid and `data:` URLs).
        public var isChecked: Bool { appliedActions.isChecked }
        /// Whether any list blocks the load.
        public var isBlocked: Bool { appliedActions.isBlocked }
        /// Whether any list strips the load's cookies.
        public var blocksCookies: Bool { appliedActions.blocksCookies }
        /// Whether the load is upgraded to HTTPS.
        public var upgradesToHTTPS: Bool { appliedActions.upgradesToHTTPS }
    }
}
