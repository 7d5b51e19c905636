import CWebKitGTK

extension WebView {
    /// Turns WebKit's feature `identifier` (a `WebKitFeature` of `webkit_settings_get_all_features`,
    /// such as `SharedWorker`) on or off for this view's pages from their next load. False when
    /// this WebKit has no such feature.
    @discardableResult
    public func setFeature(_ identifier: String, enabled: Bool) -> Bool {
        withFeature(identifier) { settings, feature in webkit_settings_set_feature_enabled(settings, feature, enabled ? 1 : 0) } != nil
    }

    /// Whether WebKit's feature `identifier` is on for this view; nil when this WebKit has no such
    /// feature.
    public func isFeatureEnabled(_ identifier: String) -> Bool? {
        withFeature(identifier) { settings, feature in webkit_settings_get_feature_enabled(settings, feature) != 0 }
    }

    /// `body` with the view's settings and the feature named `identifier`; nil when there is none.
    private func withFeature<Result>(_ identifier: String, _ body: (OpaquePointer, OpaquePointer) -> Result) -> Result? {
        guard let settings = webkit_web_view_get_settings(view), let features = webkit_settings_get_all_features() else { return nil }
        defer { webkit_feature_list_unref(features) }
        for index in 0..<webkit_feature_list_get_length(features) {
            if let feature = webkit_feature_list_get(features, index), let name = webkit_feature_get_identifier(feature),
                String(cString: name) == identifier
            {
                return body(settings, feature)
            }
        }
        return nil
    }
}
