import TrackerlessCore

extension PublicSuffixList {
    /// Every entry of the list with its kind bits for the blocking script (1 rule, 2 wildcard,
    /// 4 exception, 0 a step towards a longer entry), ICANN and private rules alike.
    package func compactEntries() -> [(String, Int)] {
        entries().map { entry in
            (entry.suffix, (entry.isRule ? 1 : 0) | (entry.isWildcard ? 2 : 0) | (entry.isException ? 4 : 0))
        }
    }
}
