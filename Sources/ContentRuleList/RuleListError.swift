/// Why WebKit would refuse a rule list, in WebKit's own words, with where the problem is.
///
/// ```
/// rule 12: Invalid or unsupported regular expression. (url-filter "a|b": Disjunctions are not supported yet. at offset 1)
/// ```
public struct RuleListError: Error, Sendable, Hashable, CustomStringConvertible {
    /// One case per error of WebKit's `ContentExtensionError`.
    public enum Kind: Sendable, Hashable, CaseIterable {
        /// `JSONInvalid`
        case jsonInvalid
        /// `JSONTopLevelStructureNotAnArray`
        case topLevelStructureNotAnArray
        /// `JSONInvalidObjectInTopLevelArray` (WebKit no longer produces it; neither do we).
        case invalidObjectInTopLevelArray
        /// `JSONInvalidRule`: an element of the top-level array is not an object.
        case invalidRule
        /// `JSONContainsNoRules`: no rule is left (after dropping invalid selectors).
        case containsNoRules
        /// `JSONInvalidTrigger`
        case invalidTrigger
        /// `JSONInvalidURLFilterInTrigger`: missing, not a string, or empty.
        case invalidURLFilterInTrigger
        /// `JSONInvalidTriggerFlagsArray`
        case invalidTriggerFlagsArray
        /// `JSONInvalidStringInTriggerFlagsArray`
        case invalidStringInTriggerFlagsArray
        /// `JSONInvalidAction`
        case invalidAction
        /// `JSONInvalidActionType`
        case invalidActionType
        /// `JSONInvalidCSSDisplayNoneActionType`
        case invalidCSSDisplayNoneActionType
        /// `JSONInvalidRegex`: the url-filter or a condition pattern is outside the regex subset.
        case invalidRegex
        /// Not WebKit's: a pattern WebKit accepts, with groups nested deeper than the 200 levels
        /// Trackerless supports.
        case regexNestedTooDeeply
        /// `JSONInvalidConditionList`
        case invalidConditionList
        /// `JSONTooManyRules`
        case tooManyRules
        /// `JSONTopURLAndDomainConditions` (Safari 11 to 16)
        case topURLAndDomainConditions
        /// `JSONInvalidRequestMethod`
        case invalidRequestMethod
        /// `JSONDomainNotLowerCaseASCII`
        case domainNotLowerCaseASCII
        /// `JSONMultipleConditions`
        case multipleConditions
        /// `JSONInvalidNotification`
        case invalidNotification
        /// `ErrorWritingSerializedNFA` (a WebKit I/O failure; never produced here).
        case errorWritingSerializedNFA
        /// `JSONRedirectMissing`
        case redirectMissing
        /// `JSONRemoveParametersNotStringArray`
        case removeParametersNotStringArray
        /// `JSONAddOrReplaceParametersNotArray`
        case addOrReplaceParametersNotArray
        /// `JSONAddOrReplaceParametersKeyValueNotADictionary`
        case addOrReplaceParametersKeyValueNotADictionary
        /// `JSONAddOrReplaceParametersKeyValueMissingKeyString`
        case addOrReplaceParametersKeyValueMissingKeyString
        /// `JSONAddOrReplaceParametersKeyValueMissingValueString`
        case addOrReplaceParametersKeyValueMissingValueString
        /// `JSONRedirectExtensionPathDoesNotStartWithSlash`
        case redirectExtensionPathDoesNotStartWithSlash
        /// `JSONRedirectURLSchemeInvalid`
        case redirectURLSchemeInvalid
        /// `JSONRedirectToJavaScriptURL`
        case redirectToJavaScriptURL
        /// `JSONRedirectURLInvalid`
        case redirectURLInvalid
        /// `JSONRedirectInvalidType`
        case redirectInvalidType
        /// `JSONRedirectInvalidPort`
        case redirectInvalidPort
        /// `JSONRedirectInvalidQuery`
        case redirectInvalidQuery
        /// `JSONRedirectInvalidFragment`
        case redirectInvalidFragment
        /// `JSONModifyHeadersInvalidOperation`
        case modifyHeadersInvalidOperation
        /// `JSONModifyHeadersInfoNotADictionary`
        case modifyHeadersInfoNotADictionary
        /// `JSONModifyHeadersMissingOperation`
        case modifyHeadersMissingOperation
        /// `JSONModifyHeadersMissingHeader`
        case modifyHeadersMissingHeader
        /// `JSONModifyHeadersMissingValue`
        case modifyHeadersMissingValue
        /// `JSONModifyHeadersNotArray`
        case modifyHeadersNotArray
        /// `JSONModifyHeadersInvalidPriority`
        case modifyHeadersInvalidPriority

        /// WebKit's message for this error, word for word.
        public var message: String {
            switch self {
            case .jsonInvalid: "Failed to parse the JSON String."
            case .topLevelStructureNotAnArray: "Invalid input, the top level structure is not an array."
            case .invalidObjectInTopLevelArray: "Invalid object in the top level array."
            case .invalidRule: "Invalid rule."
            case .containsNoRules: "Empty extension."
            case .invalidTrigger: "Invalid trigger object."
            case .invalidURLFilterInTrigger: "Invalid url-filter object."
            case .invalidTriggerFlagsArray: "Invalid trigger flags array."
            case .invalidStringInTriggerFlagsArray: "Invalid string in the trigger flags array."
            case .invalidAction: "Invalid action object."
            case .invalidActionType: "Invalid action type."
            case .invalidCSSDisplayNoneActionType: "Invalid css-display-none action type. Requires a selector."
            case .invalidRegex: "Invalid or unsupported regular expression."
            case .regexNestedTooDeeply: "Regular expression nested too deeply for Trackerless."
            case .invalidConditionList:
                "Invalid list of if-domain, unless-domain, if-top-url, or unless-top-url conditions."
            case .tooManyRules: "Too many rules in JSON array."
            case .topURLAndDomainConditions:
                "A list cannot have if-domain and unless-domain mixed with if-top-url and unless-top-url"
            case .invalidRequestMethod:
                #"The request-method string must be "get", "head", "options", "trace", "put", "delete", "post", "patch", or "connect"."#
            case .domainNotLowerCaseASCII:
                "Domains must be lower case ASCII. Use punycode to encode non-ASCII characters."
            case .multipleConditions:
                "A trigger cannot have more than one condition (if-domain, unless-domain, if-top-url, or unless-top-url)"
            case .invalidNotification: "A notify action must have a string notification"
            case .errorWritingSerializedNFA: "Internal I/O error"
            case .redirectMissing: "A redirect action must have a redirect member"
            case .removeParametersNotStringArray: "A remove-parameters value must be an array of strings"
            case .addOrReplaceParametersNotArray: "An add-or-replace-parameters value must be an array"
            case .addOrReplaceParametersKeyValueNotADictionary:
                "Members of the add-or-replace-parameters array must be a dictionary"
            case .addOrReplaceParametersKeyValueMissingKeyString:
                "Members of the add-or-replace-parameters array must contain a key that is a string"
            case .addOrReplaceParametersKeyValueMissingValueString:
                "Members of the add-or-replace-parameters array must contain a value that is a string"
            case .redirectExtensionPathDoesNotStartWithSlash: "A redirect extension path must start with a slash"
            case .redirectURLSchemeInvalid: "A redirect url scheme must be a valid scheme"
            case .redirectToJavaScriptURL: "A redirect url can't have a scheme of javascript"
            case .redirectURLInvalid: "A redirect url must be valid"
            case .redirectInvalidType:
                #"A redirect must have a member named "extension-path", "regex-substitution", "transform" or "url""#
            case .redirectInvalidPort:
                "A redirect port must be either empty or a number between 0 and 65535, inclusive"
            case .redirectInvalidQuery: "A redirect query must either be empty or begin with '?'"
            case .redirectInvalidFragment: "A redirect fragment must either be empty or begin with '#'"
            case .modifyHeadersInvalidOperation:
                #"A modify-headers operation must have an operation that is either "set", "append", or "remove""#
            case .modifyHeadersInfoNotADictionary: "A modify-headers operation must be a dictionary"
            case .modifyHeadersMissingOperation: "A modify-headers operation must have an operation"
            case .modifyHeadersMissingHeader: "A modify-headers operation must have a header"
            case .modifyHeadersMissingValue: #"A modify-headers operation of "set" or "append" must have a value"#
            case .modifyHeadersNotArray: "A headers member must be an array"
            case .modifyHeadersInvalidPriority: "A priority must be a positive integer"
            }
        }
    }

    /// Which error WebKit reports.
    public var kind: Kind
    /// The zero-based index of the offending rule in the JSON array, when one rule is at fault.
    public var ruleIndex: Int?
    /// What exactly is wrong and where, beyond WebKit's words: the JSON syntax position, the key
    /// path, or the pattern and the regex problem.
    public var detail: String?
    /// The file the list was read from, when known.
    public var file: String?

    /// Creates an error.
    public init(_ kind: Kind, ruleIndex: Int? = nil, detail: String? = nil, file: String? = nil) {
        self.kind = kind
        self.ruleIndex = ruleIndex
        self.detail = detail
        self.file = file
    }

    /// WebKit's message, which is what WebKit itself would report.
    public var message: String { kind.message }

    /// The file, the rule, WebKit's message and the detail, for example
    /// `rules.json: rule 12: Invalid or unsupported regular expression. (url-filter "a|b": …)`.
    public var description: String {
        var text = ""
        if let file { text += "\(file): " }
        if let ruleIndex { text += "rule \(ruleIndex): " }
        text += kind.message
        if let detail { text += " (\(detail))" }
        return text
    }

    /// A copy that names the file the list was read from.
    public func inFile(_ file: String) -> RuleListError {
        var copy = self
        copy.file = file
        return copy
    }
}
