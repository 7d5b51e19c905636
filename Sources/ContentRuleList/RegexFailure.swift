/// A pattern of a rule that WebKit's regex subset rejects, described for ``RuleListError/detail``.
///
/// The validator, the reference evaluator and the rule engine describe a failing pattern with it,
/// so that all three name it in the same words.
package struct RegexFailure: Error {
    package var detail: String
    /// ``RuleListError/Kind/invalidRegex``, unless the pattern passes WebKit and fails only a
    /// limit of Trackerless's own.
    package var kind: RuleListError.Kind = .invalidRegex

    /// The rule's `url-filter` failed.
    package init(urlFilter: String, _ error: URLFilterError) {
        self.init(detail: "url-filter \(RuleListParser.quoted(urlFilter)) \(error.reason)", kind: Self.kind(of: error))
    }

    /// An entry of the rule's condition failed: `value` as written, `pattern` the regex it stands
    /// for (an `if-domain` entry's rewrite, or the value itself).
    package init(condition: Condition, value: String, pattern: String, _ error: URLFilterError) {
        let source =
            value == pattern
            ? "\(condition.key) \(RuleListParser.quoted(value))"
            : "\(condition.key) \(RuleListParser.quoted(value)) (as the regex \(RuleListParser.quoted(pattern)))"
        self.init(detail: "\(source) \(error.reason)", kind: Self.kind(of: error))
    }

    private init(detail: String, kind: RuleListError.Kind) {
        self.detail = detail
        self.kind = kind
    }

    private static func kind(of error: URLFilterError) -> RuleListError.Kind {
        error.isWebKitError ? .invalidRegex : .regexNestedTooDeeply
    }
}
