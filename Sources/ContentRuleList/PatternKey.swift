/// A pattern with its case flag: what a url-filter is parsed from.
struct PatternKey: Hashable {
    var pattern: String
    var isCaseSensitive: Bool
}
