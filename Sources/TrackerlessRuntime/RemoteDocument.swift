public import Foundation
import TrackerlessCore

/// Where an input of a ``ProtectionSet`` is downloaded from: an `http` or `https` URL, and the
/// SHA-256 its body must have when the host pins one.
///
/// ```swift
/// let tds = RemoteDocument(url: URL(string: "https://staticcdn.duckduckgo.com/trackerblocking/v6/current/macos-tds.json")!)
/// ```
public struct RemoteDocument: Sendable, Hashable {
    /// The URL to GET; redirects are followed as ``UpdatePolicy`` allows.
    public var url: URL
    /// The SHA-256 (64 hex digits, either case) the body must have; nil for any body that
    /// decodes. A pinned body is refused unless it is exactly the one pinned, so a host pins only
    /// a document that does not change (a versioned URL).
    public var sha256: String?

    /// A document to download from `url`, pinned to `sha256` when given.
    public init(url: URL, sha256: String? = nil) {
        self.url = url
        self.sha256 = sha256
    }

    /// The pinned digest in lower case.
    var pinnedDigest: String? { sha256?.lowercased() }

    /// Why the document cannot be downloaded as given; nil when it can.
    var problem: String? {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host != nil else {
            return "\"\(url.absoluteString.excerpt())\" is not an http or https URL with a host"
        }
        let isHex = { (byte: UInt8) in (0x30...0x39).contains(byte) || (0x61...0x66).contains(byte | 0x20) }
        if let sha256, sha256.utf8.count != 64 || !sha256.utf8.allSatisfy(isHex) {
            return "the SHA-256 \"\(sha256.excerpt())\" is not 64 hex digits"
        }
        return nil
    }
}
