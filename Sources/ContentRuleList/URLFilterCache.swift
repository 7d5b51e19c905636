/// Parsed url-filters, shared between rules with the same pattern and case flag: the reference
/// evaluator and the rule engine parse each pattern of a list once.
package struct URLFilterCache {
    private var filters: [PatternKey: Result<URLFilter, URLFilterError>] = [:]

    /// An empty cache.
    package init() {}

    /// The filter parsed from `pattern`, or the error it failed with, the same for every call.
    package mutating func filter(_ pattern: String, isCaseSensitive: Bool) throws(URLFilterError) -> URLFilter {
        let key = PatternKey(pattern: pattern, isCaseSensitive: isCaseSensitive)
        let result: Result<URLFilter, URLFilterError>
        if let cached = filters[key] {
            result = cached
        } else {
            do {
                result = .success(try URLFilter(parsing: pattern, isCaseSensitive: isCaseSensitive))
            } catch {
                result = .failure(error)
            }
            filters[key] = result
        }
        return try result.get()
    }
}
