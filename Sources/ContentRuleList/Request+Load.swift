// What WebKit derives from a request before it matches any rule: which navigation the load is
// and the flags its triggers are tested against. The reference evaluator and the rule engine
// both start here, so that they cannot classify a load differently.

extension Request {
    /// A navigation of the main frame: `top-document`, or `document` without a frame URL.
    package var isMainFrameNavigation: Bool {
        resourceType == .topDocument || (resourceType == .document && frameURL == nil)
    }

    /// A navigation of a frame inside the page: `child-document`, or `document` with a frame URL.
    package var isFrameNavigation: Bool {
        resourceType == .childDocument || (resourceType == .document && frameURL != nil)
    }

    /// The flags WebKit tests triggers against for this load: its resource type (a navigation's
    /// own), first or third party as `isThirdParty` says, top or child frame, and the method.
    package func loadFlags(isThirdParty: Bool) -> ResourceFlags {
        let isMainFrameNavigation = isMainFrameNavigation
        let isFrameNavigation = isFrameNavigation
        var flags: ResourceFlags
        if isMainFrameNavigation {
            flags = .topDocument
        } else if isFrameNavigation {
            flags = .childDocument
        } else {
            flags = resourceType.flags
        }
        flags.insert(isThirdParty ? .thirdParty : .firstParty)
        flags.insert(isMainFrameNavigation || (frameURL == nil && !isFrameNavigation) ? .topFrame : .childFrame)
        flags.insert(.requestMethod(method ?? .get))
        return flags
    }
}
