import DisconnectLists

/// Small hand-written inputs with example domains, used by the unit tests.
enum ExampleLists {
    static let disconnectList = #"""
    {
      "license": "example",
      "categories": {
        "Advertising": [
          {"Ad Network": {"https://ads.example/": ["ads.example", "adserver.example"]}},
          {"Big Co": {"https://bigco.example/": ["bigco-ads.example"]}}
        ],
        "Analytics": [
          {"Counter": {"https://counter.example/": ["counter.example"], "performance": "true"}},
          {"Polite Stats": {"https://polite.example/": ["polite.example"], "dnt": "eff"}},
          {"Big Co": {"https://bigco.example/": ["bigco-stats.example", "yandex.example/clck/click"]}}
        ],
        "Social": [],
        "Content": [{"Videos": {"https://videos.example/": ["videos.example"]}}],
        "Cryptomining": [{"Miner": {"https://miner.example/": ["miner.example"]}}],
        "FingerprintingInvasive": [
          {"Counter": {"https://counter.example/": ["counter.example"]}},
          {"Lone FP": {"https://fp.example/": ["fp-only.example"]}}
        ],
        "Email": [{"Mailer": {"https://mailer.example/": ["mailer.example"]}}]
      }
    }
    """#

    static let entityList = #"""
    {
      "license": "example",
      "entities": {
        "Big Co": {
          "properties": ["bigco.example", "bigco-news.example", "BigCo-Shop.example"],
          "resources": ["bigco-ads.example", "bigco-stats.example"]
        },
        "Ad Network": {"properties": ["ads.example"], "resources": ["ads.example"]},
        "Substring Trap": {"properties": ["trap.example"], "resources": ["ads.exam"]}
      }
    }
    """#

    static func parsedDisconnectList() throws -> DisconnectList {
        try DisconnectList(parsing: Array(disconnectList.utf8))
    }

    static func parsedEntityList() throws -> EntityList {
        try EntityList(parsing: Array(entityList.utf8))
    }
}
