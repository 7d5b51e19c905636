import Foundation
import TrackerDataKit
import TrackerlessCore

/// What the statistics know of one request host, whatever the site: its registrable domain,
/// whether it can never be a tracker, and the classification its requests share when it cannot.
final class HostInfo: Sendable {
    /// The host; "" for an authority that does not parse.
    let host: String
    /// Its registrable domain (eTLD+1), or the host itself.
    let domain: String
    /// Whether no tracker, CNAME or request-blocklist entry can apply to a URL on it.
    let isPlain: Bool
    /// The classification of its requests on a site of the same registrable domain, when plain.
    let firstParty: RequestClassification
    /// The classification of its requests on other sites, when plain.
    let thirdParty: RequestClassification

    init(host: String, domain: String, isPlain: Bool) {
        self.host = host
        self.domain = domain
        self.isPlain = isPlain
        firstParty = RequestClassification(host: host, isThirdParty: false)
        thirdParty = RequestClassification(host: host, isThirdParty: true)
    }

    static let unparseable = HostInfo(host: "", domain: "", isPlain: true)
}
