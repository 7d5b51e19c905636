/// The kind of load a trigger's `resource-type` names, in WebKit's words.
///
/// Some names stand for several kinds of load: `document` is a top-level or frame navigation,
/// `other` also covers pings and CSP reports, and the legacy `raw` covers fetches, web sockets,
/// pings and other loads. A ``Request`` uses the single kinds the loader assigns.
public enum ResourceType: String, Sendable, Hashable, CaseIterable {
    /// A navigation of the main frame or of a frame (`top-document` or `child-document`).
    case document
    /// A navigation of the main frame.
    case topDocument = "top-document"
    /// A navigation of a frame inside the page.
    case childDocument = "child-document"
    /// An image.
    case image
    /// A style sheet (also XSL).
    case styleSheet = "style-sheet"
    /// A script (also JSON modules).
    case script
    /// A font (also SVG fonts).
    case font
    /// An SVG document loaded as a resource.
    case svgDocument = "svg-document"
    /// Audio, video or a text track.
    case media
    /// A pop-up window or a targeted navigation.
    case popup
    /// A ping (`<a ping>`, beacons are `other`).
    case ping
    /// An `XMLHttpRequest` or `fetch()`.
    case fetch
    /// A web socket.
    case websocket
    /// A Content-Security-Policy violation report.
    case cspReport = "csp-report"
    /// Any other load (beacons, icons, manifests); as a trigger value also pings and CSP reports.
    case other
    /// Legacy trigger value: fetches, web sockets, pings and other loads.
    case raw
}

extension ResourceType {
    /// WebKit's internal bits for this value, with the `document`, `other` and `raw` expansions.
    var flags: ResourceFlags {
        switch self {
        case .document: [.topDocument, .childDocument]
        case .topDocument: .topDocument
        case .childDocument: .childDocument
        case .image: .image
        case .styleSheet: .styleSheet
        case .script: .script
        case .font: .font
        case .svgDocument: .svgDocument
        case .media: .media
        case .popup: .popup
        case .ping: .ping
        case .fetch: .fetch
        case .websocket: .webSocket
        case .cspReport: .cspReport
        case .other: [.other, .ping, .cspReport]
        case .raw: [.fetch, .webSocket, .other, .ping]
        }
    }
}
