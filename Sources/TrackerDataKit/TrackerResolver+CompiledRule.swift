import TrackerlessCore

extension TrackerResolver {
    /// A tds rule prepared for matching: its regular expression compiled once (into a
    /// linear-time matcher), its conditions normalized. A class, so that trying a tracker's rules
    /// in turn copies none of their fields.
    final class CompiledRule: Sendable {
        /// nil when the rule can never apply: an invalid expression.
        let regex: TrackerRuleRegex.Matcher?
        /// Why the expression is unusable, for the resolver's warnings.
        let regexError: TrackerRuleRegex.ParseError?
        let isSupported: Bool
        /// The `block-ctl-*` action, whose rules block only where Click-to-Load does.
        let clickToLoadAction: String?
        let options: CompiledCondition?
        let exceptions: CompiledCondition?

        init(_ rule: Tracker.Rule) {
            isSupported = rule.action?.isSupported ?? true
            if case .blockClickToLoad(let action)? = rule.action { clickToLoadAction = action } else { clickToLoadAction = nil }
            do throws(TrackerRuleRegex.ParseError) {
                regex = try TrackerRuleRegex(parsing: rule.rule).matcher()
                regexError = nil
            } catch {
                regex = nil
                regexError = error
            }
            options = rule.options.flatMap(CompiledCondition.init)
            exceptions = rule.exceptions.flatMap(CompiledCondition.init)
        }

        /// Whether the rule decides this request: supported, its expression found in `url`, and
        /// its options (if any) matching.
        /// `url` is the URL's bytes and `lowercased` the same with ASCII letters lowercased.
        func applies(
            to url: UnsafeBufferPointer<UInt8>, lowercased: UnsafeBufferPointer<UInt8>, siteHost: String, type: RequestType
        ) -> Bool {
            guard isSupported, let regex else { return false }
            if let options, !options.matches(siteHost: siteHost, type: type) { return false }
            return regex.matches(url, lowercased: lowercased)
        }

        /// Whether the rule's exceptions cover this request.
        func isExcepted(siteHost: String, type: RequestType) -> Bool {
            exceptions?.matches(siteHost: siteHost, type: type) ?? false
        }
    }

    /// Rule `options` or `exceptions` with lowercased domains and a type set.
    struct CompiledCondition: Sendable {
        let domains: [String]?
        let types: Set<RequestType>?

        /// nil for a condition with neither list, which says nothing.
        init?(_ condition: Tracker.Rule.Condition) {
            guard !condition.isEmpty else { return nil }
            domains = condition.domains?.map(DomainName.normalized)
            types = condition.types.map(Set.init)
        }

        func matches(siteHost: String, type: RequestType) -> Bool {
            if let types, !types.contains(type) { return false }
            if let domains, !domains.contains(where: { DomainName.host(siteHost, isWithin: $0) }) { return false }
            return true
        }
    }
}
