/// The console message WebKit adds to a document for each load a content rule list blocked, read
/// from its text.
///
/// WebCore's `ContentExtensionsBackend::processContentRuleListsForLoad` adds it, with the message
/// source `ContentBlocker` and the level `Info`, for every load of the document or its frames
/// that a content filter blocks, whoever started it (markup, CSS, a dedicated worker, page
/// script):
///
/// ```text
/// Content blocker prevented frame displaying <main document URL> from loading a resource from <URL>
/// ```
///
/// The text is the same in WebKitGTK 2.44, 2.50 and 2.54 (`customLoadBlockingMessageForConsole`,
/// which may replace it, answers nothing outside Apple's builds). A page can print the same text
/// with `console.info`, so the text alone proves nothing: the web-process extension takes only a
/// message whose source is not the console API, JavaScript, the network or security (WebKitGTK
/// gives a content blocker's as `WEBKIT_CONSOLE_MESSAGE_SOURCE_OTHER`), whose level is info, and
/// whose main document URL is the page's (see ``init(text:pageURL:)``).
public struct ContentBlockerMessage: Sendable, Hashable {
    /// The URL of the page's main document, as WebKit names it.
    public var mainDocumentURL: String
    /// The URL whose load was blocked.
    public var url: String

    /// WebKit's words before the main document's URL.
    static let prefix = "Content blocker prevented frame displaying "
    /// WebKit's words between the two URLs.
    static let separator = " from loading a resource from "

    /// The blocked load `text` names, or nil when `text` is not WebKit's message, names another
    /// main document than `pageURL` (when given), or either URL is not one WebKit writes (empty,
    /// or holding a space or a control character, which WebKit's URLs never do).
    public init?(text: String, pageURL: String?) {
        guard text.hasPrefix(Self.prefix) else { return nil }
        let rest = text.dropFirst(Self.prefix.count)
        guard let separator = rest.range(of: Self.separator) else { return nil }
        let main = String(rest[..<separator.lowerBound]), url = String(rest[separator.upperBound...])
        guard Self.isURLAsWebKitWrites(main), Self.isURLAsWebKitWrites(url) else { return nil }
        if let pageURL, pageURL != main { return nil }
        mainDocumentURL = main
        self.url = url
    }

    /// Whether `text` could be a URL as WebKit's `URL::string()` writes it: a scheme (a letter,
    /// then letters, digits, `+`, `-`, `.`) and a colon, and only printable ASCII without a space.
    static func isURLAsWebKitWrites(_ text: String) -> Bool {
        let scalars = text.unicodeScalars
        guard let colon = scalars.firstIndex(of: ":"), let first = scalars.first, isLetter(first),
            scalars[..<colon].allSatisfy({ isLetter($0) || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0) })
        else { return false }
        // WebKit's URLs are ASCII: hosts in Punycode, the rest percent-encoded.
        return !scalars.contains { $0.value <= 0x20 || $0.value >= 0x7F }
    }

    private static func isLetter(_ scalar: Unicode.Scalar) -> Bool { ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) }
}
