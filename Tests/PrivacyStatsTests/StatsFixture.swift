import PrivacyStatsKit
import TrackerDataKit
import TrackerlessCore

/// A small blocklist whose every tracker shows one behaviour, and helpers to build messages.
enum StatsFixture {
    static let trackerData = """
        {
          "trackers": {
            "tracker.test": {"domain": "tracker.test", "owner": {"name": "Tracker Inc", "displayName": "Tracker"},
              "prevalence": 0.3, "fingerprinting": 1, "categories": ["Advertising"], "default": "block",
              "rules": [{"rule": "tracker\\\\.test/ignored\\\\.js", "action": "ignore"},
                        {"rule": "tracker\\\\.test/excepted\\\\.js", "exceptions": {"domains": ["site.test"]}}]},
            "analytics.test": {"domain": "analytics.test", "owner": {"name": "Analytics Co", "displayName": "Analytics"},
              "prevalence": 0.05, "fingerprinting": 1, "categories": ["Analytics"], "default": "ignore",
              "rules": [{"rule": "analytics\\\\.test/a\\\\.js", "surrogate": "analytics.js"},
                        {"rule": "analytics\\\\.test/collect"}]},
            "owned.test": {"domain": "owned.test", "owner": {"name": "Site Owner", "displayName": "Site Owner"},
              "prevalence": 0.01, "fingerprinting": 0, "categories": ["Embedded Content"], "default": "block"},
            "fp.test": {"domain": "fp.test", "owner": {"name": "FP Ltd", "displayName": "FP"},
              "prevalence": 0.01, "fingerprinting": 3, "categories": ["Advertising"], "default": "block"},
            "widgets.host.test": {"domain": "widgets.host.test", "owner": {"name": "Widget Co", "displayName": "Widget"},
              "prevalence": 0.01, "fingerprinting": 0, "categories": [], "default": "block"},
            "social.test": {"domain": "social.test", "owner": {"name": "Social Corp", "displayName": "Social"},
              "prevalence": 0.1, "fingerprinting": 1, "categories": ["Social Network", "Advertising"], "default": "block"}
          },
          "entities": {
            "Tracker Inc": {"displayName": "Tracker", "domains": ["tracker.test"], "prevalence": 30},
            "Analytics Co": {"displayName": "Analytics", "domains": ["analytics.test"], "prevalence": 5},
            "Site Owner": {"displayName": "Site Owner", "domains": ["site.test", "owned.test"], "prevalence": 1},
            "FP Ltd": {"displayName": "FP", "domains": ["fp.test"], "prevalence": 1},
            "Social Corp": {"displayName": "Social", "domains": ["social.test"], "prevalence": 10},
            "Widget Co": {"displayName": "Widget", "domains": ["widgets.host.test"], "prevalence": 1}
          },
          "domains": {"tracker.test": "Tracker Inc", "analytics.test": "Analytics Co", "site.test": "Site Owner",
                      "owned.test": "Site Owner", "fp.test": "FP Ltd", "social.test": "Social Corp",
                      "widgets.host.test": "Widget Co"},
          "cnames": {"metrics.site.test": "collect.tracker.test"}
        }
        """

    static let configuration = """
        {
          "features": {
            "contentBlocking": {"state": "enabled", "exceptions": [{"domain": "broken.test", "reason": "breakage"}]},
            "trackerAllowlist": {"state": "enabled", "settings": {"allowlistedTrackers": {
              "tracker.test": {"rules": [{"rule": "tracker.test/widget.js", "domains": ["site.test"], "reason": "widget"}]}
            }}}
          },
          "unprotectedTemporary": []
        }
        """

    static let surrogates = """
        analytics.test/analytics.js application/javascript
        (() => {})()

        """

    static let resolver: TrackerResolver = {
        // The literals above are valid; a failure here is a broken fixture.
        let tds = try! TrackerData(parsing: Array(trackerData.utf8), file: "fixture tds.json")
        let config = try! PrivacyConfiguration(parsing: Array(configuration.utf8), file: "fixture config.json")
        return TrackerResolver(
            trackerData: tds, surrogates: Surrogates(parsing: surrogates), privacyConfiguration: config,
            userAllowlist: UserAllowlist(domains: ["mine.test"]))
    }()

    static let secret = ScriptSecret(hex: "0123456789abcdef0123456789abcdef")!

    static func message(
        _ events: [ObservedEvent], page: String = "https://site.test/", frame: String? = nil, isTopFrame: Bool = true,
        document: String = "aaaaaaaaaaaaaaaa", sequence: Int = 0, script: ScriptMessage.Script = .inference,
        dropped: Int = 0, secret: String = StatsFixture.secret.value
    ) -> ScriptMessage {
        ScriptMessage(
            secret: secret, script: script,
            page: ScriptMessage.Page(id: document, url: page, frame: frame ?? page, isTopFrame: isTopFrame),
            sequence: sequence, events: events, dropped: dropped)
    }

    static func body(_ message: ScriptMessage) -> MessageBody { .json(message.jsonValue().jsonString()) }

    static func request(_ url: String, _ type: RequestType = .script, _ state: ObservedState = .failed) -> ObservedEvent {
        .request(url: url, type: type, state: state)
    }
}
