/// The inputs a ``ProtectionUpdater`` keeps current: the blocklist, and the privacy
/// configuration when the host takes it from a server too.
///
/// ```swift
/// let sources = UpdateSources(
///     trackerData: RemoteDocument(url: URL(string: "https://staticcdn.duckduckgo.com/trackerblocking/v6/current/macos-tds.json")!),
///     privacyConfiguration: RemoteDocument(url: URL(string: "https://staticcdn.duckduckgo.com/trackerblocking/config/v4/macos-config.json")!))
/// ```
public struct UpdateSources: Sendable, Hashable {
    /// Where the Tracker Radar blocklist (tds.json) comes from.
    public var trackerData: RemoteDocument
    /// Where the privacy configuration comes from; nil to keep the runtime's own.
    public var privacyConfiguration: RemoteDocument?

    /// Sources for the blocklist and, when given, the privacy configuration.
    public init(trackerData: RemoteDocument, privacyConfiguration: RemoteDocument? = nil) {
        self.trackerData = trackerData
        self.privacyConfiguration = privacyConfiguration
    }

    /// Each input with its source, the blocklist first.
    var documents: [(input: ProtectionInput, document: RemoteDocument)] {
        [(.trackerData, trackerData)] + (privacyConfiguration.map { [(.privacyConfiguration, $0)] } ?? [])
    }

    /// The first source that cannot be downloaded as given, and why.
    func check() throws(UpdateError) {
        for (input, document) in documents {
            if let problem = document.problem {
                throw UpdateError(input: input, url: document.url.absoluteString, reason: .invalidSource(problem))
            }
        }
    }
}
