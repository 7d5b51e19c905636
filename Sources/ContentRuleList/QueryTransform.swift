/// The `query-transform` member of a URL transform: parameters to remove, add or replace.
///
/// Removal beats replacement; parameters that are not replace-only are appended. Nothing happens
/// to a URL without a query.
public struct QueryTransform: Sendable, Hashable {
    /// One entry of `add-or-replace-parameters`.
    public struct Parameter: Sendable, Hashable {
        /// The parameter name.
        public var key: String
        /// The new value.
        public var value: String
        /// `replace-only`: change the parameter only when it is present, never append it.
        public var replaceOnly: Bool

        /// Creates a parameter change.
        public init(key: String, value: String, replaceOnly: Bool = false) {
            self.key = key
            self.value = value
            self.replaceOnly = replaceOnly
        }
    }

    /// `remove-parameters`: names of the parameters to remove; nil when absent.
    public var removeParameters: [String]?
    /// `add-or-replace-parameters`; nil when absent.
    public var addOrReplaceParameters: [Parameter]?

    /// Creates a query transform.
    public init(removeParameters: [String]? = nil, addOrReplaceParameters: [Parameter]? = nil) {
        self.removeParameters = removeParameters
        self.addOrReplaceParameters = addOrReplaceParameters
    }
}
