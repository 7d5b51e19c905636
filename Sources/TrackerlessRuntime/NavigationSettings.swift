import URLPrefilter

/// What the navigation decision takes from ``ProtectionInputs`` beside the blocklist, the
/// configuration and the user allowlist: the user's GPC setting and the HTTPS filter, read.
struct NavigationSettings: Sendable {
    /// ``ProtectionInputs/globalPrivacyControl``.
    var gpcOnForUser = true
    /// The files of ``ProtectionInputs/httpsFilterDirectory``, read; nil without it.
    var httpsUpgrade: HTTPSUpgrade?
}
