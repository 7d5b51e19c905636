import ContentRuleList

/// What an action location holds, for quick summaries.
enum ActionKind: UInt8, Sendable {
    case block, blockCookies, cssDisplayNone, ignorePreviousRules, ignoreFollowingRules, makeHTTPS, notify,
        redirect, modifyHeaders

    init(_ action: Action) {
        switch action {
        case .block: self = .block
        case .blockCookies: self = .blockCookies
        case .cssDisplayNone: self = .cssDisplayNone
        case .ignorePreviousRules: self = .ignorePreviousRules
        case .ignoreFollowingRules: self = .ignoreFollowingRules
        case .makeHTTPS: self = .makeHTTPS
        case .notify: self = .notify
        case .redirect: self = .redirect
        case .modifyHeaders: self = .modifyHeaders
        }
    }
}
