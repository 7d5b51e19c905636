public import NavigationProtections
import TrackerDataKit

extension ProtectionInputs {
    /// The navigation decision of these inputs without building a set (no rule list, script or
    /// engine): the blocklist, the privacy configuration, the user allowlist, the user's GPC
    /// setting and the HTTPS filter, read and parsed as a build reads them and composed as a
    /// ``ProtectionSet/navigationProtector`` is, for a tool that decides navigations only
    /// (`trackerless navigate`).
    ///
    /// - Parameter gpcHeaderScope: which requests carry `Sec-GPC`; a set's decision uses
    ///   `.enabledSites`, the navigations of the configuration's GPC header sites.
    /// - Throws: ``ProtectionError/invalidInput(_:detail:)`` naming the input that could not be
    ///   read or parsed.
    public func navigationProtector(
        gpcHeaderScope: GlobalPrivacyControl.HeaderScope = .enabledSites
    ) throws(ProtectionError) -> NavigationProtector {
        try read().parse().navigationProtector(gpcHeaderScope: gpcHeaderScope)
    }
}

extension ParsedInputs {
    /// The one composition of the navigation protections, which a set (with the site toggles'
    /// allowlist, for a runtime) and ``ProtectionInputs/navigationProtector(gpcHeaderScope:)`` use.
    func navigationProtector(
        userAllowlist: UserAllowlist? = nil, gpcHeaderScope: GlobalPrivacyControl.HeaderScope = .enabledSites
    ) -> NavigationProtector {
        NavigationProtector(
            configuration: configuration ?? PrivacyConfiguration(), trackerData: trackerData,
            userAllowlist: userAllowlist ?? self.userAllowlist, gpcOnForUser: navigation.gpcOnForUser,
            gpcHeaderScope: gpcHeaderScope, httpsUpgrade: navigation.httpsUpgrade)
    }

    /// What the navigation protections read of these inputs, and its encoding (a set's
    /// ``ProtectionSet/navigationData``), from the configuration (an empty one when there is none,
    /// as ``navigationProtector(userAllowlist:gpcHeaderScope:)`` composes it) and the blocklist.
    func navigationData() -> (decoded: NavigationProtectionData, encoded: [UInt8]) {
        let data = NavigationProtectionData(configuration: configuration ?? PrivacyConfiguration(), trackerData: trackerData)
        return (data, data.encoded())
    }
}
