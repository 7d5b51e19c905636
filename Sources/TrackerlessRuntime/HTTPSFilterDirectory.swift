import TrackerDataKit
import URLPrefilter

/// A directory of DuckDuckGo's Smarter Encryption files, read into the ``URLPrefilter/HTTPSUpgrade``
/// decision (`HTTPSUpgrade(directory:privacyConfiguration:)`), its error named as the runtime's
/// input: the runtime's inputs and `trackerless navigate --https-filter DIR` read it here.
enum HTTPSFilterDirectory {
    /// The decision of the files in `directory`, with the `https` feature of `configuration`.
    ///
    /// - Throws: ``ProtectionError/invalidInput(_:detail:)`` for ``ProtectionInput/httpsFilter``,
    ///   naming the file and the place.
    static func read(_ directory: String, configuration: PrivacyConfiguration?) throws(ProtectionError) -> HTTPSUpgrade {
        do throws(PrefilterError) {
            return try HTTPSUpgrade(directory: directory, privacyConfiguration: configuration)
        } catch {
            throw .invalidInput(.httpsFilter, detail: "\(error)")
        }
    }
}
