import CWebKitGTK

/// A navigation WebKitGTK asks the host to decide (`decide-policy`, `NAVIGATION_ACTION`): its URL
/// and what WebKit says of where it came from.
///
/// WebKitGTK's navigation actions do not say which frame they navigate: a frame's load arrives as
/// type `other`, like the main frame's own (measured with 2.50 and 2.52; see
/// ``ProtectedWebView`` for how it tells them apart where it must).
public struct NavigationAction: Sendable, Equatable {
    /// What started it (`WebKitNavigationType`).
    public enum Kind: Sendable, Equatable {
        /// A link was followed (a person's click or a script's `click()`).
        case linkClicked
        /// A form was submitted.
        case formSubmitted
        /// Back or forward in the history.
        case backForward
        /// A reload.
        case reload
        /// A form submitted again (a reload or history step of a POST).
        case formResubmitted
        /// Anything else: the host's own loads, scripts' `location` changes, and frames' loads.
        case other
    }

    /// The URL to navigate to.
    public var url: String
    /// What started it.
    public var kind: Kind
    /// Whether it follows a server redirect.
    public var isRedirect: Bool
    /// The `target` of the link or form that started it, if any.
    public var targetFrameName: String?
    /// The `Referer` of its request, if any.
    public var referrer: String?

    /// The action of a `WebKitNavigationPolicyDecision`.
    init(decision: UnsafeMutableRawPointer) {
        let action = webkit_navigation_policy_decision_get_navigation_action(OpaquePointer(decision))
        let request = webkit_navigation_action_get_request(action)
        url = webkit_uri_request_get_uri(request).map { String(cString: $0) } ?? ""
        switch webkit_navigation_action_get_navigation_type(action) {
        case WEBKIT_NAVIGATION_TYPE_LINK_CLICKED: kind = .linkClicked
        case WEBKIT_NAVIGATION_TYPE_FORM_SUBMITTED: kind = .formSubmitted
        case WEBKIT_NAVIGATION_TYPE_BACK_FORWARD: kind = .backForward
        case WEBKIT_NAVIGATION_TYPE_RELOAD: kind = .reload
        case WEBKIT_NAVIGATION_TYPE_FORM_RESUBMITTED: kind = .formResubmitted
        default: kind = .other
        }
        isRedirect = webkit_navigation_action_is_redirect(action) != 0
        targetFrameName = webkit_navigation_action_get_frame_name(action).map { String(cString: $0) }
        referrer = webkit_uri_request_get_http_headers(request).flatMap { soup_message_headers_get_one($0, "Referer") }
            .map { String(cString: $0) }
    }
}

extension WebView {
    /// What a navigation decision handler answers.
    public enum NavigationPolicy: Sendable, Equatable {
        /// Let WebKit navigate.
        case use
        /// Cancel the navigation (the handler starts another one).
        case ignore
    }

    /// Calls `decide` for each navigation WebKit is about to start in this view (main frame and
    /// frames alike: WebKit does not say which); new-window and response decisions are left to
    /// WebKit.
    public func decideNavigations(_ decide: @escaping (NavigationAction) -> NavigationPolicy) {
        let handler: @convention(c) (gpointer?, UnsafeMutablePointer<WebKitPolicyDecision>?, WebKitPolicyDecisionType, gpointer?) -> gboolean = {
            _, decision, type, data in
            guard type == WEBKIT_POLICY_DECISION_TYPE_NAVIGATION_ACTION, let decision else { return 0 }
            switch CallbackBox<(NavigationAction) -> NavigationPolicy>.peek(data)(NavigationAction(decision: UnsafeMutableRawPointer(decision))) {
            case .use: return 0  // WebKit's default handler uses it
            case .ignore:
                webkit_policy_decision_ignore(decision)
                return 1
            }
        }
        connectSignal(UnsafeMutableRawPointer(widget), "decide-policy", handler, data: CallbackBox(decide).retained())
    }

    /// Runs `source` in the main frame's page world, where the page's own scripts run (the
    /// blocking script listens there), without waiting for its result.
    public func runInPage(_ source: String) {
        webkit_web_view_evaluate_javascript(view, source, -1, nil, nil, nil, nil, nil)
    }
}
