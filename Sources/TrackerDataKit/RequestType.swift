/// The type of a request in the WebExtensions `webRequest.ResourceType` vocabulary that Tracker
/// Radar uses in rule `options` and `exceptions` (`script`, `image`, `stylesheet`, …).
///
/// Any string is representable, so a type this release does not know still round-trips and is
/// compared by name.
public struct RequestType: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    /// The name as written in tds.json, for example `xmlhttprequest`.
    public var rawValue: String

    /// Creates a type from its name; names are compared case-sensitively, as DuckDuckGo does.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Creates a type from a string literal.
    public init(stringLiteral value: String) { self.rawValue = value }

    /// The name.
    public var description: String { rawValue }

    /// A top-level navigation.
    public static let mainFrame: RequestType = "main_frame"
    /// A document loaded into a frame (`<iframe>`, `<frame>`).
    public static let subdocument: RequestType = "subdocument"
    /// A script.
    public static let script: RequestType = "script"
    /// An image.
    public static let image: RequestType = "image"
    /// A style sheet.
    public static let stylesheet: RequestType = "stylesheet"
    /// A font.
    public static let font: RequestType = "font"
    /// Audio or video.
    public static let media: RequestType = "media"
    /// A request made with `XMLHttpRequest` or `fetch`.
    public static let xmlhttprequest: RequestType = "xmlhttprequest"
    /// A WebSocket connection.
    public static let websocket: RequestType = "websocket"
    /// A `navigator.sendBeacon` or hyperlink-auditing ping.
    public static let ping: RequestType = "ping"
    /// An `<object>` or `<embed>` resource.
    public static let object: RequestType = "object"
    /// A Content-Security-Policy violation report.
    public static let cspReport: RequestType = "csp_report"
    /// Anything else.
    public static let other: RequestType = "other"
}
