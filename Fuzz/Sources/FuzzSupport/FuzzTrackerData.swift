public import TrackerDataKit

/// A blocklist of two trackers on example domains, for fuzzers whose input is something else.
public enum FuzzTrackerData {
    /// tds.json of `tracker.example` (blocked, a rule with a surrogate) and `cdn.example` (ignored).
    public static let json = """
        {"trackers": {
           "tracker.example": {"domain": "tracker.example", "owner": {"name": "Tracker Inc", "displayName": "Tracker"},
             "prevalence": 0.3, "fingerprinting": 1, "categories": ["Advertising"], "default": "block",
             "rules": [{"rule": "tracker\\\\.example/a\\\\.js", "surrogate": "a.js"},
                       {"rule": "tracker\\\\.example/ok", "action": "ignore"}]},
           "cdn.example": {"domain": "cdn.example", "owner": {"name": "CDN Co", "displayName": "CDN"},
             "prevalence": 0.1, "fingerprinting": 0, "categories": [], "default": "ignore"}},
         "entities": {"Tracker Inc": {"displayName": "Tracker", "domains": ["tracker.example"], "prevalence": 30},
                      "CDN Co": {"displayName": "CDN", "domains": ["cdn.example", "site.example"], "prevalence": 10}},
         "domains": {"tracker.example": "Tracker Inc", "cdn.example": "CDN Co", "site.example": "CDN Co"},
         "cnames": {"metrics.site.example": "collect.tracker.example"}}
        """

    /// ``json`` parsed.
    public static let sample: TrackerData = {
        // Our own fixture: failing to parse it is a broken fuzzer, not a finding.
        guard let trackerData = try? TrackerData(parsing: Array(json.utf8)) else { fatalError("FuzzTrackerData.json") }
        return trackerData
    }()
}
