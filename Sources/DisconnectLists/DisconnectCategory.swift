/// A category of Disconnect's tracker list (`disconnect-blacklist.json`), by its name in the file.
public enum DisconnectCategory: String, Sendable, Hashable, CaseIterable, Comparable {
    /// `Advertising`.
    case advertising = "Advertising"
    /// `Analytics`.
    case analytics = "Analytics"
    /// `Social`.
    case social = "Social"
    /// `Content`: embedded content that also tracks (videos, widgets, fonts).
    case content = "Content"
    /// `Cryptomining`.
    case cryptomining = "Cryptomining"
    /// `FingerprintingInvasive`: the fingerprinters Firefox blocks.
    case fingerprintingInvasive = "FingerprintingInvasive"
    /// `FingerprintingGeneral`.
    case fingerprintingGeneral = "FingerprintingGeneral"
    /// `Email`: email trackers.
    case email = "Email"
    /// `EmailAggressive`: email trackers whose blocking may break sites.
    case emailAggressive = "EmailAggressive"
    /// `Anti-fraud`.
    case antiFraud = "Anti-fraud"
    /// `ConsentManagers`.
    case consentManagers = "ConsentManagers"
    /// `Disconnect`: the former home of Facebook, Twitter and Google, absent from current lists.
    case disconnect = "Disconnect"

    /// Orders categories as declared, for deterministic output.
    public static func < (lhs: DisconnectCategory, rhs: DisconnectCategory) -> Bool {
        allCases.firstIndex(of: lhs) ?? 0 < allCases.firstIndex(of: rhs) ?? 0
    }
}
