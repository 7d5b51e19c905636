public import ContentRuleList
public import TrackerDataKit

extension RequestType {
    /// The WebKit resource types that a Tracker Radar (webRequest) request type names, for
    /// `resource-type` triggers. Empty when WebKit's loader has no such load.
    public var webKitResourceTypes: [ResourceType] {
        switch rawValue {
        case "main_frame": [.topDocument]
        case "sub_frame", "subdocument": [.childDocument]
        case "image", "imageset": [.image, .svgDocument]
        case "stylesheet", "xslt": [.styleSheet]
        case "script": [.script]
        case "font": [.font]
        case "media": [.media]
        case "xmlhttprequest", "fetch", "xhr": [.fetch]
        case "websocket": [.websocket]
        case "ping", "beacon": [.ping]
        case "csp_report": [.cspReport]
        case "object", "object_subrequest", "web_manifest", "xml_dtd", "speculative", "other": [.other]
        default: []
        }
    }

    /// The Tracker Radar request type of a load as WebKit's loader types it.
    public init(webKitResourceType type: ResourceType) {
        switch type {
        case .topDocument, .document: self = .mainFrame
        case .childDocument: self = .subdocument
        case .image, .svgDocument: self = .image
        case .styleSheet: self = .stylesheet
        case .script: self = .script
        case .font: self = .font
        case .media: self = .media
        case .fetch, .raw: self = .xmlhttprequest
        case .websocket: self = .websocket
        case .ping: self = .ping
        case .cspReport: self = .cspReport
        case .popup, .other: self = .other
        }
    }
}
