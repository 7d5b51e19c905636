/// Why ``PrivacyStats`` refused a script message. Each rejection is counted by reason
/// (``PrivacyStats/rejections()``); a rejected message changes no statistics.
public enum MessageRejection: String, Error, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The body is larger than ``PrivacyStats/Limits/maxMessageBytes`` (256 KiB by default).
    case oversized
    /// The body is not JSON, or not a JSON object.
    case malformedJSON
    /// `trackerless` is missing or is not protocol version 1.
    case unknownVersion
    /// `secret` is missing or is not one of the secrets of the current renders: a forged message.
    case wrongSecret
    /// A field is missing, has the wrong type, or has a value outside the protocol.
    case invalidSchema
    /// More events than ``PrivacyStats/Limits/maxEventsPerMessage`` (500 by default).
    case tooManyEvents
    /// An event URL is longer than ``PrivacyStats/Limits/maxURLBytes`` (8,192 UTF-8 bytes by default).
    case urlTooLong
    /// The tab has no page: the host never called ``PrivacyStats/didCommitNavigation(tab:url:)``
    /// for it, or closed it.
    case unknownTab
    /// The message comes from a document the tab has navigated away from.
    case stalePage

    /// The reason's name, as it appears in snapshots.
    public var description: String { rawValue }
}
