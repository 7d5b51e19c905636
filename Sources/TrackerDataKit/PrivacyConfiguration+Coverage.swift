import TrackerlessCore

extension PrivacyConfiguration {
    /// What the configuration leaves out that tracker blocking depends on, named, one warning
    /// each: a configuration without `contentBlocking`, or with it in any state but `enabled`,
    /// turns tracker blocking off on every site, as DuckDuckGo's apps do, and nothing else would
    /// say why every decision is "unprotected domain".
    ///
    /// ```swift
    /// let config = try PrivacyConfiguration(parsing: Array("{}".utf8), file: "config.json")
    /// config.protectionWarnings(file: "config.json").first?.description
    /// // config.json: features.contentBlocking: missing: tracker blocking is off on every site …
    /// ```
    ///
    /// - Parameter file: the configuration's name in the warnings.
    public func protectionWarnings(file: String? = nil) -> [InputWarning] {
        let path = JSONPath.root.appending(key: "features").appending(key: FeatureName.contentBlocking)
        let remedy = #"(DuckDuckGo's apps treat it so; {"state": "enabled"} turns it on)"#
        switch contentBlocking?.state {
        case .enabled?:
            return []
        case nil:
            return [InputWarning(file: file, path: path, message: "missing: tracker blocking is off on every site \(remedy)")]
        case let state?:
            return [InputWarning(
                file: file, path: path.appending(key: "state"),
                message: "\"\(state.rawValue)\": tracker blocking is off on every site \(remedy)")]
        }
    }
}
