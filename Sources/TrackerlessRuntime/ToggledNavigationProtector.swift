import Foundation
import NavigationProtections
import TrackerDataKit

/// The navigation decision of a set with the runtime's toggled sites added to its user
/// allowlist, kept for the last (set, toggles) pair: a toggle or an update makes it again on the
/// next navigation, not at every one.
final class ToggledNavigationProtector: @unchecked Sendable {
    private let lock = NSLock()
    private var last: (set: ObjectIdentifier, sitesOff: UserAllowlist, protector: NavigationProtector)?

    /// The decision of `set` with `sitesOff` turned off; the set's own when none is.
    func protector(set: ProtectionSet, sitesOff: UserAllowlist) -> NavigationProtector {
        guard !sitesOff.domains.isEmpty else { return set.navigationProtector }
        lock.lock()
        defer { lock.unlock() }
        if let last, last.set == ObjectIdentifier(set), last.sitesOff == sitesOff { return last.protector }
        let allowlist = set.inputs.others.userAllowlist.domains.union(sitesOff.domains)
        let protector = set.navigationProtector(userAllowlist: UserAllowlist(domains: Array(allowlist)))
        last = (ObjectIdentifier(set), sitesOff, protector)
        return protector
    }
}
