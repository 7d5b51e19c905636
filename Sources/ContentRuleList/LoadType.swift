/// Whether a load goes to the page's own site, as a trigger's `load-type` names it.
///
/// A load is third-party when the request's host is neither the registrable domain (eTLD+1, by
/// the Public Suffix List) of the main document nor a subdomain of it. Scheme and port do not
/// count. A main-frame navigation is always first-party.
public enum LoadType: String, Sendable, Hashable, CaseIterable {
    /// The request goes to the main document's site.
    case firstParty = "first-party"
    /// The request goes to another site.
    case thirdParty = "third-party"
}

extension LoadType {
    var flags: ResourceFlags {
        switch self {
        case .firstParty: .firstParty
        case .thirdParty: .thirdParty
        }
    }
}
