public import TrackerDataKit
import TrackerlessCore

/// DuckDuckGo's Smarter Encryption decision: whether an `http://` (or `ws://`) request is
/// loaded over HTTPS instead, and the URL it becomes.
///
/// A request is upgraded when its host is in the Bloom filter of hosts known to serve HTTPS,
/// is not in the allowlist of false positives, is not local (`localhost`, the special-use
/// domains `.localhost`, `.test`, `.example`, `.invalid`, `.local`, private and loopback IP
/// addresses), and the privacy configuration's `https` feature is enabled for both the site and
/// the request's host (neither in `features.https.exceptions` nor in `unprotectedTemporary`).
/// Hosts match exactly, as in DuckDuckGo's apps: `www.example.com` is not `example.com`.
///
/// Where the negative filter is given (DuckDuckGo's browser extension has it; its Apple, Android
/// and Windows apps do not), a host outside the main filter is also upgraded when it is in the
/// negative filter's allowlist; hosts in the negative filter are known not to serve HTTPS. Hosts
/// in neither stay as they are: no Smarter Encryption service is asked.
///
/// ```swift
/// let upgrade = HTTPSUpgrade(bloomFilter: filter, allowlist: ["broken.example"], privacyConfiguration: config)
/// upgrade.upgradedURL(forRequestURL: "http://secure.example/a", topURL: "http://secure.example/")
/// // "https://secure.example/a"
/// ```
public struct HTTPSUpgrade: Sendable {
    /// Hosts known to serve HTTPS.
    public var bloomFilter: HTTPSUpgradeBloomFilter
    /// Hosts that test positive in the filter but must not be upgraded.
    public var allowlist: Set<String>
    /// The remote configuration with the `https` feature's state and exceptions; nil means the
    /// feature is on everywhere.
    public var privacyConfiguration: PrivacyConfiguration?
    /// Hosts known not to serve HTTPS (`https_negative_bloomfilter`), or nil.
    public var negativeBloomFilter: JSBloomFilter?
    /// Hosts that test positive in the negative filter but serve HTTPS: upgraded.
    public var negativeAllowlist: Set<String>

    /// The configuration feature that controls upgrades.
    public static let featureName = "https"

    /// A decision over the given filter, allowlist and configuration.
    public init(
        bloomFilter: HTTPSUpgradeBloomFilter, allowlist: Set<String> = [], privacyConfiguration: PrivacyConfiguration? = nil,
        negativeBloomFilter: JSBloomFilter? = nil, negativeAllowlist: Set<String> = []
    ) {
        self.bloomFilter = bloomFilter
        self.allowlist = Set(allowlist.map { $0.lowercased() })
        self.privacyConfiguration = privacyConfiguration
        self.negativeBloomFilter = negativeBloomFilter
        self.negativeAllowlist = Set(negativeAllowlist.map { $0.lowercased() })
    }

    /// The URL to load instead of `requestURL`, or nil when it stays as it is (already secure,
    /// not upgradable, excepted, or not a valid URL).
    ///
    /// - Parameters:
    ///   - requestURL: the request; only `http` and `ws` URLs without an explicit port are
    ///     upgraded, to `https` and `wss`.
    ///   - topURL: the page's URL as in the address bar; for a navigation, the request itself.
    public func upgradedURL(forRequestURL requestURL: String, topURL: String) -> String? {
        guard let request = CanonicalURL(requestURL) else { return nil }
        let secureScheme: String
        switch request.scheme {
        case "http": secureScheme = "https"
        case "ws": secureScheme = "wss"
        default: return nil
        }
        guard request.port == nil, shouldUpgrade(host: request.host, siteHost: CanonicalURL(topURL)?.host) else {
            return nil
        }
        return secureScheme + request.string.dropFirst(request.scheme.utf8.count)
    }

    /// Whether requests to `host` are upgraded on a page of `siteHost` (nil: judge the host alone).
    public func shouldUpgrade(host: String, siteHost: String?) -> Bool {
        let host = host.lowercased()
        guard !host.isEmpty, !Self.isLocal(host), !allowlist.contains(host), isKnownSecure(host) else {
            return false
        }
        if let privacyConfiguration {
            guard privacyConfiguration.isFeatureEnabled(Self.featureName, forSiteHost: host) else { return false }
            if let siteHost, !privacyConfiguration.isFeatureEnabled(Self.featureName, forSiteHost: siteHost) {
                return false
            }
        }
        return true
    }

    /// Reads an allowlist file, `{"data": ["host", …]}`.
    ///
    /// - Throws: ``PrefilterError/invalidFile(path:reason:)`` naming the file and the JSON path.
    /// What the filters know about a host (lowercase), before local hosts and the configuration.
    public enum HostKnowledge: Sendable, Hashable {
        /// It serves HTTPS: in the main filter and not in its allowlist, or in the negative
        /// filter's allowlist.
        case secure
        /// It does not: in the main filter's allowlist, or in the negative filter.
        case insecure
        /// Neither filter knows it; a client with DuckDuckGo's Smarter Encryption service asks it.
        case unknown
    }

    /// What the filters know about `host`.
    public func knowledge(ofHost host: String) -> HostKnowledge {
        let host = host.lowercased()
        if allowlist.contains(host) { return .insecure }
        if bloomFilter.contains(host) { return .secure }
        guard let negativeBloomFilter else { return .unknown }
        if negativeAllowlist.contains(host) { return .secure }
        return negativeBloomFilter.contains(host) ? .insecure : .unknown
    }

    private func isKnownSecure(_ host: String) -> Bool {
        knowledge(ofHost: host) == .secure
    }

    public static func allowlist(parsing bytes: [UInt8], file: String = "allowlist") throws(PrefilterError) -> Set<String> {
        do throws(JSONReadError) {
            return try JSONReader.read(bytes) { (reader) throws(JSONReadError) -> Set<String> in
                let object = try reader.indexObject(at: .root)
                try reader.seekRequired("data", in: object)
                let hosts = Set(try reader.readStringArray(at: object.path(of: "data")).map { $0.lowercased() })
                reader.leave(object)
                return hosts
            }
        } catch {
            throw .invalidFile(path: file, reason: error.description)
        }
    }

    // MARK: Local hosts

    private static let localSuffixes = ["localhost", "local", "test", "example", "invalid"]

    /// Hosts that never reach the public internet, so a certificate for them cannot be expected.
    static func isLocal(_ host: String) -> Bool {
        if let lastLabel = host.split(separator: ".").last, localSuffixes.contains(String(lastLabel)) { return true }
        if host.hasPrefix("[") { return isLocalIPv6(host.dropFirst().dropLast()) }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false).map { UInt8($0) }
        guard octets.count == 4, octets.allSatisfy({ $0 != nil }) else { return false }
        let first = octets[0] ?? 0, second = octets[1] ?? 0
        switch first {
        case 0, 10, 127: return true
        case 169: return second == 254
        case 172: return (16...31).contains(second)
        case 192: return second == 168
        case 100: return (64...127).contains(second)  // carrier-grade NAT
        default: return false
        }
    }

    private static func isLocalIPv6(_ address: Substring) -> Bool {
        let address = address.lowercased()
        if address == "::1" || address == "::" { return true }
        guard let firstGroup = address.split(separator: ":", omittingEmptySubsequences: false).first,
              let value = UInt16(firstGroup, radix: 16)
        else { return false }
        // fc00::/7 unique local, fe80::/10 link-local.
        return value & 0xFE00 == 0xFC00 || value & 0xFFC0 == 0xFE80
    }
}
