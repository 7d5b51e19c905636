public import NavigationProtections
import TrackerDataKit

extension ProtectionSet {
    /// The navigation decision of the set's inputs: AMP links, tracking parameters and the HTTPS
    /// upgrade on the URL, GPC and referrer trimming on the headers (NavigationProtections),
    /// from the same privacy configuration, blocklist and user allowlist as the set's rule lists
    /// and scripts, with the user's GPC setting and the HTTPS filter of ``ProtectionInputs``.
    ///
    /// Made on first use from the set's ``navigationData`` (what the protections read of the
    /// configuration and the blocklist, the same decisions as the whole inputs give), so a set
    /// loaded from the cache decides navigations without parsing its blocklist. A host that takes
    /// its rule lists, scripts and navigation decision from one set never mixes generations; the
    /// site toggles of a runtime are applied by `ProtectionRuntime.navigationPlan(for: Navigation)`.
    public var navigationProtector: NavigationProtector {
        navigationProtectorSlot.get { navigationProtector(userAllowlist: inputs.others.userAllowlist) }
    }

    /// The navigation decision with `userAllowlist` in place of the inputs' allowlist, from
    /// ``navigationData``.
    func navigationProtector(userAllowlist: UserAllowlist) -> NavigationProtector {
        let settings = inputs.others.navigation
        return NavigationProtector(
            navigationProtectionData, userAllowlist: userAllowlist, gpcOnForUser: settings.gpcOnForUser,
            httpsUpgrade: settings.httpsUpgrade)
    }
}
