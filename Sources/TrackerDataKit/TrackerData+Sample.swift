extension TrackerData {
    /// The sample blocklist `trackerless rules` uses without `--tds`: made-up trackers on
    /// reserved `.example` domains, written for this project, that exercise every kind of rule.
    public static let sampleDocument = #"""
{
  "readme": "Trackerless sample blocklist: made-up trackers on reserved example domains, for trying the tools.",
  "trackers": {
    "ads.example": {
      "domain": "ads.example",
      "owner": {"name": "Example Ads Inc.", "displayName": "Example Ads"},
      "prevalence": 0.12, "fingerprinting": 2, "cookies": 0.08,
      "categories": ["Advertising"],
      "default": "block",
      "rules": [
        {"rule": "ads\\.example/consent/", "action": "ignore"},
        {"rule": "ads\\.example/tag\\.js", "surrogate": "noop.js"},
        {"rule": "ads\\.example/pixel", "exceptions": {"domains": ["shop.example"], "types": ["image"]}}
      ]
    },
    "metrics.example": {
      "domain": "metrics.example",
      "owner": {"name": "Example Metrics LLC", "displayName": "Example Metrics"},
      "prevalence": 0.05, "fingerprinting": 1, "cookies": 0.02,
      "categories": ["Analytics"],
      "default": "ignore",
      "rules": [
        {"rule": "metrics\\.example/collect", "options": {"types": ["xmlhttprequest", "image"]}},
        {"rule": "cdn\\.metrics\\.example/[0-9]+/beacon\\.js"}
      ]
    },
    "social.example": {
      "domain": "social.example",
      "owner": {"name": "Example Social Network", "displayName": "Example Social"},
      "prevalence": 0.2, "fingerprinting": 2, "cookies": 0.1,
      "categories": ["Social Network"],
      "default": "block"
    }
  },
  "entities": {
    "Example Ads Inc.": {"domains": ["ads.example", "adserver.example"], "displayName": "Example Ads", "prevalence": 12.0},
    "Example Metrics LLC": {"domains": ["metrics.example"], "displayName": "Example Metrics", "prevalence": 5.0},
    "Example Social Network": {"domains": ["social.example", "socialphotos.example"], "displayName": "Example Social", "prevalence": 20.0}
  },
  "domains": {
    "ads.example": "Example Ads Inc.",
    "adserver.example": "Example Ads Inc.",
    "metrics.example": "Example Metrics LLC",
    "social.example": "Example Social Network",
    "socialphotos.example": "Example Social Network"
  },
  "cnames": {
    "stats.news.example": "collector.metrics.example",
    "track.shop.example": "edge.ads.example"
  }
}
"""#
}
