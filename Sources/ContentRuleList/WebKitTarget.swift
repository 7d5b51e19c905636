package import TrackerlessCore

/// One WebKit release line as a content-blocker compiler: the rule-list vocabulary it accepts and
/// how it evaluates what it accepts.
///
/// WebKit refuses a whole list for a `resource-type`, `load-type` or `load-context` value or an
/// action `type` it does not know ("Invalid string in the trigger flags array.", "Invalid action
/// type."), and silently ignores a trigger key it does not know, so that the rule applies more
/// widely. A list is therefore built for one target and validated for it:
///
/// ```swift
/// let target = WebKitTarget.webKitGTK(major: 2, minor: 44)
/// var warnings: [RuleListWarning] = []
/// let list = try RuleList(parsing: json, for: target, warnings: &warnings)
/// ```
///
/// The facts, and where each comes from (WebKit's commits, Apple's shipped WebCore, or measured
/// in WebKitGTK 2.44.2, 2.50.6 and 2.54.3), are in the ContentRuleList catalog's article
/// "WebKit targets". Where the release that shipped a feature is not certain, the later one is
/// taken.
public struct WebKitTarget: Sendable, Hashable, CustomStringConvertible {
    /// How a load is decided to be third party for `load-type`.
    public enum ThirdPartyRule: String, Sendable, Hashable {
        /// The request's origin (scheme, host, port) differs from the main document's: WebKit
        /// before 2021 (`SecurityOrigin::canAccess`), so `cdn.example.com` is third party on
        /// `www.example.com`.
        case origin
        /// The request's host is not within the main document's registrable domain (eTLD+1):
        /// WebKit since 2021 (`RegistrableDomain::matches`).
        case registrableDomain
        /// As ``registrableDomain`` where the Public Suffix List lists the main document's
        /// top-level domain, and within the main document's host where it does not (`.example`,
        /// `.test`, `.local`): measured in WebKitGTK 2.44.2, where `cdn.site.example` is third
        /// party on `www.site.example`.
        case registrableDomainOfListedSuffixes
    }

    /// How an `if-domain`/`unless-domain` entry is matched.
    public enum DomainConditionRule: String, Sendable, Hashable {
        /// Against the main document's host: the entry itself, or with a leading `*` the entry
        /// and its subdomains.
        case host
        /// As an unanchored regex over the main document's URL (`[a-z][a-z+.-]*:\/\/` + domain +
        /// `[:/]`), WebKit since 2022: a top URL that merely contains `://domain/` matches too.
        case topURLRegex
    }

    /// The target's name: `safari-15` … `safari-26`, `webkitgtk-2.44` … `webkitgtk-2.54`, `newest`.
    public let name: String
    /// A name for people: "Safari 15 (iOS 15, macOS 12)", "WebKitGTK 2.44".
    public let displayName: String
    /// The `resource-type` values it accepts.
    public let resourceTypes: Set<ResourceType>
    /// The trigger keys it reads beyond those every supported WebKit reads (`url-filter`, its
    /// case flag, `resource-type`, `load-type`, `load-context`, `if-domain`, `unless-domain`,
    /// `if-top-url`, `unless-top-url`, `top-url-filter-is-case-sensitive`).
    public let optionalTriggerKeys: Set<String>
    /// The action `type` values it accepts.
    public let actionTypes: Set<String>
    /// The most rules one list may have.
    public let maximumRuleCount: Int
    /// The most JSON one list should have, in bytes: WebKit states no limit, but compiling lists
    /// much larger fails in practice (about 19 MB in Safari, reported by content-blocker makers in
    /// 2025; about 10 MB in iOS 17, a bug later fixed). WebKitGTK has none reported and gets the
    /// same as Safari, so that one list fits every WebKit.
    public let jsonByteBudget: Int
    /// How `load-type` decides third party.
    public let thirdParty: ThirdPartyRule
    /// How `if-domain` and `unless-domain` match.
    public let domainConditions: DomainConditionRule
    /// Whether a main-frame navigation in a new view (no document to leave) is matched against
    /// frame conditions with its own URL, as WebKitGTK 2.50 does; WebKitGTK 2.44 matches no
    /// frame URL there (measured), and for Safari before 26 it is not known, so the same is taken.
    public let matchesNewViewAgainstItsURL: Bool
    /// Pseudo-classes of `css-display-none` selectors that this WebKit's CSS parser does not know
    /// yet: a rule whose selector names one is dropped silently.
    public let unknownSelectorPseudoClasses: Set<String>
    /// Whether a list may not mix `if-domain`/`unless-domain` with `if-top-url`/`unless-top-url`
    /// ("A list cannot have if-domain and unless-domain mixed with if-top-url and unless-top-url").
    public let refusesDomainAndTopURLConditionsInOneList: Bool

    public var description: String { name }

    /// Whether it accepts the resource type.
    public func supports(_ type: ResourceType) -> Bool { resourceTypes.contains(type) }

    /// Whether it reads the trigger key (a key it does not read is ignored, not refused).
    public func reads(triggerKey key: String) -> Bool {
        Self.originalTriggerKeys.contains(key) || optionalTriggerKeys.contains(key)
    }

    /// Whether it accepts the action type.
    public func supports(actionType type: String) -> Bool { actionTypes.contains(type) }

    /// The trigger keys every supported WebKit reads (`load-context` since Safari 15).
    static let originalTriggerKeys: Set<String> = [
        "url-filter", "url-filter-is-case-sensitive", "resource-type", "load-type", "load-context", "if-domain",
        "unless-domain", "if-top-url", "unless-top-url", "top-url-filter-is-case-sensitive",
    ]
}

// MARK: - The targets

extension WebKitTarget {
    /// Resource types of Safari 15 and WebKitGTK 2.44: the original ones, `ping` (Safari 13),
    /// and `fetch`, `websocket`, `other` (Safari 15).
    private static let safari15Types: Set<ResourceType> = [
        .document, .image, .styleSheet, .script, .font, .raw, .svgDocument, .media, .popup, .ping, .fetch, .websocket,
        .other,
    ]
    /// The JSON a list of Safari (and of WebKitGTK) should stay under: about 19 MB compiles.
    public static let safariJSONByteBudget = 19_000_000
    /// The JSON a list should stay under in iOS 17, which failed past about 10 MB.
    public static let iOS17JSONByteBudget = 10_000_000

    private static let baseActions: Set<String> = [
        "block", "block-cookies", "css-display-none", "ignore-previous-rules", "make-https", "notify",
    ]

    private init(
        name: String, displayName: String, resourceTypes: Set<ResourceType>, optionalTriggerKeys: Set<String>,
        actionTypes: Set<String>, thirdParty: ThirdPartyRule, domainConditions: DomainConditionRule,
        unknownSelectorPseudoClasses: Set<String> = [], jsonByteBudget: Int = WebKitTarget.safariJSONByteBudget
    ) {
        self.name = name
        self.displayName = displayName
        self.resourceTypes = resourceTypes
        self.optionalTriggerKeys = optionalTriggerKeys
        self.actionTypes = actionTypes
        self.maximumRuleCount = RuleList.maximumRuleCount
        self.jsonByteBudget = jsonByteBudget
        self.thirdParty = thirdParty
        self.domainConditions = domainConditions
        self.refusesDomainAndTopURLConditionsInOneList = domainConditions == .host
        self.unknownSelectorPseudoClasses = unknownSelectorPseudoClasses
        // Measured with the same releases as top-document (WebKitGTK 2.50), and taken as such.
        self.matchesNewViewAgainstItsURL = resourceTypes.contains(.topDocument)
    }

    /// Safari 15 (iOS 15, macOS 12): `load-context`, `fetch`, `websocket` and `other` arrive;
    /// third party still by origin and `if-domain` still by host, since it is not certain that
    /// WebKit's 2021 changes of both shipped in 15.
    public static let safari15 = WebKitTarget(
        name: "safari-15", displayName: "Safari 15 (iOS 15, macOS 12)", resourceTypes: safari15Types,
        optionalTriggerKeys: [], actionTypes: baseActions, thirdParty: .origin, domainConditions: .host,
        unknownSelectorPseudoClasses: ["focus-visible", "has", "modal", "user-invalid", "user-valid"])

    /// Safari 16 (iOS 16, macOS 13): `if-frame-url` (WWDC22), `redirect` and `modify-headers`;
    /// third party by registrable domain (in WebKit's main branch since 2021).
    public static let safari16 = WebKitTarget(
        name: "safari-16", displayName: "Safari 16 (iOS 16, macOS 13)", resourceTypes: safari15Types,
        optionalTriggerKeys: ["if-frame-url", "frame-url-filter-is-case-sensitive"],
        actionTypes: baseActions.union(["redirect", "modify-headers"]), thirdParty: .registrableDomain,
        domainConditions: .host, unknownSelectorPseudoClasses: ["user-invalid", "user-valid"])

    /// Safari 17 (iOS 17, macOS 14): `if-domain` as a top-URL regex, lists may mix conditions,
    /// `csp-report`; lists of at most ``iOS17JSONByteBudget`` bytes.
    public static let safari17 = WebKitTarget(
        name: "safari-17", displayName: "Safari 17 (iOS 17, macOS 14)", resourceTypes: safari15Types.union([.cspReport]),
        optionalTriggerKeys: ["if-frame-url", "frame-url-filter-is-case-sensitive"],
        actionTypes: baseActions.union(["redirect", "modify-headers"]), thirdParty: .registrableDomain,
        domainConditions: .topURLRegex, jsonByteBudget: iOS17JSONByteBudget)

    /// Safari 18 (iOS 18, macOS 15): as Safari 17 for content blockers.
    public static let safari18 = WebKitTarget(
        name: "safari-18", displayName: "Safari 18 (iOS 18, macOS 15)", resourceTypes: safari17.resourceTypes,
        optionalTriggerKeys: safari17.optionalTriggerKeys, actionTypes: safari17.actionTypes,
        thirdParty: .registrableDomain, domainConditions: .topURLRegex)

    /// Safari 26 (iOS 26, macOS 26): `top-document`, `child-document`, `request-method`,
    /// `unless-frame-url` and `ignore-following-rules`.
    public static let safari26 = WebKitTarget(
        name: "safari-26", displayName: "Safari 26 (iOS 26, macOS 26)",
        resourceTypes: safari17.resourceTypes.union([.topDocument, .childDocument]),
        optionalTriggerKeys: safari17.optionalTriggerKeys.union(["unless-frame-url", "request-method"]),
        actionTypes: safari17.actionTypes.union(["ignore-following-rules"]), thirdParty: .registrableDomain,
        domainConditions: .topURLRegex)

    /// WebKitGTK and WPE 2.44 (also 2.46 and 2.48, which are taken to know no more): measured
    /// in WebKitGTK 2.44.2.
    public static let webKitGTK2_44 = WebKitTarget(
        name: "webkitgtk-2.44", displayName: "WebKitGTK 2.44", resourceTypes: safari17.resourceTypes,
        optionalTriggerKeys: ["if-frame-url", "frame-url-filter-is-case-sensitive"],
        actionTypes: safari17.actionTypes, thirdParty: .registrableDomainOfListedSuffixes, domainConditions: .topURLRegex,
        unknownSelectorPseudoClasses: ["focus-visible"])

    /// WebKitGTK and WPE 2.50 (also 2.52): `top-document`, `child-document`, `request-method`,
    /// `unless-frame-url`, `ignore-following-rules`; measured in WebKitGTK 2.50.6.
    public static let webKitGTK2_50 = WebKitTarget(
        name: "webkitgtk-2.50", displayName: "WebKitGTK 2.50", resourceTypes: safari26.resourceTypes,
        optionalTriggerKeys: safari26.optionalTriggerKeys, actionTypes: safari26.actionTypes,
        thirdParty: .registrableDomain, domainConditions: .topURLRegex)

    /// WebKitGTK and WPE 2.54 and later releases: measured in WebKitGTK 2.54.3.
    public static let webKitGTK2_54 = WebKitTarget(
        name: "webkitgtk-2.54", displayName: "WebKitGTK 2.54", resourceTypes: safari26.resourceTypes,
        optionalTriggerKeys: safari26.optionalTriggerKeys, actionTypes: safari26.actionTypes,
        thirdParty: .registrableDomain, domainConditions: .topURLRegex)

    /// Everything this package's parser knows, evaluated as WebKit's main branch does: for lists
    /// that a host checks itself, not for lists to install in a shipped WebKit.
    public static let newest = WebKitTarget(
        name: "newest", displayName: "the newest WebKit", resourceTypes: Set(ResourceType.allCases),
        optionalTriggerKeys: safari26.optionalTriggerKeys, actionTypes: safari26.actionTypes,
        thirdParty: .registrableDomain, domainConditions: .topURLRegex)

    /// The oldest supported target, Safari 15: what every supported WebKit (Safari 15 and
    /// later, WebKitGTK and WPE 2.44 and later) accepts. The builder gives its lists a meaning
    /// that does not depend on how a WebKit decides third party, so that they mean the same in
    /// every one of them.
    public static let oldest = safari15

    /// Every named target, oldest first within each family.
    public static let all: [WebKitTarget] = [
        .safari15, .safari16, .safari17, .safari18, .safari26, .webKitGTK2_44, .webKitGTK2_50, .webKitGTK2_54, .newest,
    ]

    /// The target named `name` (`safari-15`, `webkitgtk-2.44`, `newest`, …); a WebKitGTK or WPE
    /// release between two named ones (`webkitgtk-2.48`, `wpe-2.46`) is the earlier one. Nil for
    /// a name it does not know or a release older than the supported ones.
    public init?(name: String) {
        let lowered = name.lowercased()
        if let target = Self.all.first(where: { $0.name == lowered }) {
            self = target
            return
        }
        for prefix in ["webkitgtk-", "wpe-"] where lowered.hasPrefix(prefix) {
            let version = lowered.dropFirst(prefix.count).split(separator: ".", omittingEmptySubsequences: false)
            guard version.count >= 2, version.count <= 3, let major = Int(version[0]), let minor = Int(version[1]),
                  version.dropFirst(2).allSatisfy({ Int($0) != nil }),
                  let target = Self.webKitGTK(major: major, minor: minor)
            else { return nil }
            self = target
            return
        }
        if lowered.hasPrefix("safari-"), let major = Int(lowered.dropFirst("safari-".count)),
           let target = Self.safari(major: major) {
            self = target
            return
        }
        return nil
    }

    /// The target of a WebKitGTK or WPE release (`webkit_get_major_version()`, …): the newest named
    /// target not newer than it. Nil before 2.44. A development release (odd minor) counts as
    /// the stable release before it.
    public static func webKitGTK(major: Int, minor: Int) -> WebKitTarget? {
        guard major == 2 else { return major > 2 ? .webKitGTK2_54 : nil }
        switch minor {
        case ..<44: return nil
        case 44..<50: return .webKitGTK2_44
        case 50..<54: return .webKitGTK2_50
        default: return .webKitGTK2_54
        }
    }

    /// The target of a Safari (or the WebKit of iOS, iPadOS, macOS, visionOS with the same
    /// number): Safari 19 to 25 never existed, and later releases count as 26. Nil before 15.
    public static func safari(major: Int) -> WebKitTarget? {
        switch major {
        case ..<15: nil
        case 15: .safari15
        case 16: .safari16
        case 17: .safari17
        case 18...25: .safari18
        default: .safari26
        }
    }

    /// The target of Apple's WebKit from its framework's `CFBundleVersion` (`17612.1.29.41.4`,
    /// `20621.1.15.11.10`): the first number's last three digits are WebKit's release train, 612
    /// and 613 Safari 15, 614–615 Safari 16, 616–617 Safari 17, 618–621 Safari 18, 622 and later
    /// Safari 26 (the digits before them name the OS the build is for). A train whose Safari is
    /// not certain counts as the earlier one. Nil for a version it cannot read or before 612.
    public static func appleWebKit(bundleVersion: String) -> WebKitTarget? {
        guard let first = bundleVersion.split(separator: ".", omittingEmptySubsequences: false).first,
              (3...9).contains(first.count), first.allSatisfy({ $0.isASCII && $0.isNumber }), let build = Int(first)
        else { return nil }
        switch build % 1000 {
        case 612...613: return .safari15
        case 614...615: return .safari16
        case 616...617: return .safari17
        case 618...621: return .safari18
        case 622...: return .safari26
        default: return nil
        }
    }
}

extension WebKitTarget {
    /// Whether this WebKit may find a load from a host of `site` third party on a page of
    /// `site` (`cdn.site.example` on `www.site.example`), where the resolver finds it first
    /// party: by origin (Safari 15), or by host under a top-level domain the Public Suffix List
    /// does not list (WebKitGTK 2.44). A builder then names `site` as first party itself.
    package func mayFindOwnSiteThirdParty(_ site: String, publicSuffixList: PublicSuffixList) -> Bool {
        switch thirdParty {
        case .origin: true
        case .registrableDomain: false
        case .registrableDomainOfListedSuffixes: !publicSuffixList.listsTopLevelDomain(of: site)
        }
    }
}
