public import ContentRuleList

/// Loads the rule-list fuzzers decide: every resource type, first and third party, frames,
/// methods, and URLs outside what WebKit matches (non-ASCII, no host).
public enum FuzzLoads {
    /// The sample loads.
    public static let requests: [Request] = {
        var requests: [Request] = []
        let types: [ResourceType] = [.topDocument, .childDocument, .script, .image, .fetch, .other]
        for (index, url) in FuzzRequests.urls.enumerated() {
            let type = types[index % types.count]
            requests.append(Request(url: url, topURL: "https://site.example/", resourceType: type))
            requests.append(Request(
                url: url, topURL: "https://tracker.example/p", frameURL: "https://frame.example/f", resourceType: .script,
                method: index % 2 == 0 ? .post : nil))
        }
        requests.append(Request.mainDocument("https://site.example/ü?q=%41"))
        return requests
    }()
}
