/// Which loads a rule applies to (the `trigger` object of a rule).
///
/// Every constraint must hold: the `url-filter` matches the request URL, the load has one of the
/// listed resource types, load types and load contexts (an empty list does not constrain), the
/// document's method equals ``requestMethod``, and the ``condition`` holds.
public struct Trigger: Sendable, Hashable {
    /// `url-filter`: a pattern in WebKit's regex subset matched against the canonical request URL.
    public var urlFilter: String
    /// `url-filter-is-case-sensitive`.
    public var urlFilterIsCaseSensitive: Bool
    /// `top-url-filter-is-case-sensitive`: applies to the domain and top-URL conditions.
    public var topURLFilterIsCaseSensitive: Bool
    /// `frame-url-filter-is-case-sensitive`: applies to the frame-URL conditions.
    public var frameURLFilterIsCaseSensitive: Bool
    /// `resource-type`, in the order written; empty means any.
    public var resourceTypes: [ResourceType]
    /// `load-type`, in the order written; empty means any.
    public var loadTypes: [LoadType]
    /// `load-context`, in the order written; empty means any.
    public var loadContexts: [LoadContext]
    /// `request-method`; nil means any.
    ///
    /// WebKit never lets a rule with both a request method and a condition pass its condition
    /// test: with an `if-` condition it never applies, with an `unless-` one it always does.
    public var requestMethod: RequestMethod?
    /// The one condition (`if-domain`, `unless-domain`, `if-top-url`, …), if any.
    public var condition: Condition?

    /// Creates a trigger; every constraint left at its default does not constrain.
    public init(
        urlFilter: String,
        urlFilterIsCaseSensitive: Bool = false,
        topURLFilterIsCaseSensitive: Bool = false,
        frameURLFilterIsCaseSensitive: Bool = false,
        resourceTypes: [ResourceType] = [],
        loadTypes: [LoadType] = [],
        loadContexts: [LoadContext] = [],
        requestMethod: RequestMethod? = nil,
        condition: Condition? = nil
    ) {
        self.urlFilter = urlFilter
        self.urlFilterIsCaseSensitive = urlFilterIsCaseSensitive
        self.topURLFilterIsCaseSensitive = topURLFilterIsCaseSensitive
        self.frameURLFilterIsCaseSensitive = frameURLFilterIsCaseSensitive
        self.resourceTypes = resourceTypes
        self.loadTypes = loadTypes
        self.loadContexts = loadContexts
        self.requestMethod = requestMethod
        self.condition = condition
    }
}

extension Trigger {
    /// The trigger's bit set: resource types, load types, load contexts and method.
    package var flags: ResourceFlags {
        var flags: ResourceFlags = []
        for type in resourceTypes { flags.formUnion(type.flags) }
        for type in loadTypes { flags.formUnion(type.flags) }
        for context in loadContexts { flags.formUnion(context.flags) }
        if let requestMethod { flags.formUnion(.requestMethod(requestMethod)) }
        return flags
    }
}
