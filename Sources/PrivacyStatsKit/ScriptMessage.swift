import TrackerDataKit

/// One message of protocol v1, sent by the blocking or the inference script, decoded and
/// checked against the protocol and the ``PrivacyStats/Limits``.
public struct ScriptMessage: Sendable, Hashable {
    /// Which script sent it.
    public enum Script: String, Sendable, Hashable, CaseIterable {
        /// The inference script: what the page loaded or failed to load.
        case inference
        /// The blocking script: what it blocked in JavaScript and which surrogates it ran.
        case blocking
    }

    /// The document that sent it.
    public struct Page: Sendable, Hashable {
        /// A random identifier of the document instance (16 hexadecimal digits by protocol).
        public var id: String
        /// The top-level page URL as the document knows it.
        public var url: String
        /// The URL of the sending document; the same as ``url`` in the top frame.
        public var frame: String
        /// Whether the document is the top frame.
        public var isTopFrame: Bool

        /// Creates a page description.
        public init(id: String, url: String, frame: String, isTopFrame: Bool) {
            self.id = id
            self.url = url
            self.frame = frame
            self.isTopFrame = isTopFrame
        }
    }

    /// The protocol version, 1.
    public var version: Int
    /// The render secret the message carries.
    public var secret: String
    /// The sender.
    public var script: Script
    /// The sending document.
    public var page: Page
    /// The message's number among its document's messages from this script, from 0.
    public var sequence: Int
    /// What the script saw since its previous message.
    public var events: [ObservedEvent]
    /// How many events the script dropped since its previous message (its queue was full).
    public var dropped: Int

    /// Creates a message.
    public init(
        version: Int = 1, secret: String, script: Script, page: Page, sequence: Int, events: [ObservedEvent],
        dropped: Int = 0
    ) {
        self.version = version
        self.secret = secret
        self.script = script
        self.page = page
        self.sequence = sequence
        self.events = events
        self.dropped = dropped
    }
}
