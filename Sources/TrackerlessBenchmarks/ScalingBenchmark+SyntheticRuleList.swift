import ContentRuleList

extension ScalingBenchmark {
    /// A deterministic rule list shaped like the builder's output for a tds.json, and requests
    /// against it. Mix per rule: 66% tracker hosts blocked for third-party loads
    /// (`^[^:]+://+([^:/]+\.)?host\.com[:/]`), 16% paths on tracker hosts
    /// (`...host\.com(:[0-9]+)?/path`), 15% `ignore-previous-rules` for a tracker host on its
    /// owner's sites (`if-top-url`), 2% `ignore-previous-rules` for one resource type on a path,
    /// 1% `css-display-none` with `if-domain`.
    struct SyntheticRuleList {
        /// The list.
        private(set) var ruleList = RuleList([])
        /// Registrable hosts the list blocks.
        private var hosts: [String] = []
        private var hostSet: Set<String> = []
        /// Paths blocked on a host, as they appear in a URL.
        private var paths: [(host: String, path: String)] = []
        /// The sites pages are on; `if-top-url` and `if-domain` lists draw from them.
        private var sites: [String] = []
        private var random: SplitMix64
        /// Every rule a third-party block of a tracker host: the shape of a hosts list (Disconnect's,
        /// a blocklist of domains), the one WebKit compiles fastest.
        private let hostsOnly: Bool

        /// A list of `ruleCount` rules generated from `seed`; with `hostsOnly`, host blocks only.
        init(ruleCount: Int, seed: UInt64, hostsOnly: Bool = false) {
            random = SplitMix64(seed: seed)
            self.hostsOnly = hostsOnly
            sites = (0..<1_000).map { _ in name() + ".com" }
            var rules: [ContentRule] = []
            rules.reserveCapacity(ruleCount)
            while rules.count < ruleCount {
                rules.append(nextRule(index: rules.count))
            }
            ruleList = RuleList(rules)
        }

        private static let hostPrefix = #"^[^:]+://+([^:/]+\.)?"#

        private mutating func nextRule(index: Int) -> ContentRule {
            let kind = random.next(below: 100)
            if hostsOnly || kind < 66 || hosts.isEmpty {
                let host = newHost(index: index)
                return ContentRule(
                    trigger: Trigger(urlFilter: Self.hostPrefix + Self.escaped(host) + "[:/]", loadTypes: [.thirdParty]),
                    action: .block)
            }
            if kind < 82 {
                let host = random.next(below: 10) < 6 ? hosts[random.next(below: hosts.count)] : newHost(index: index)
                let path = name() + "/" + name() + (random.next(below: 2) == 0 ? ".js" : ".gif")
                paths.append((host, path))
                return ContentRule(
                    trigger: Trigger(
                        urlFilter: Self.hostPrefix + Self.escaped(host) + "(:[0-9]+)?/" + Self.escaped(path), loadTypes: [.thirdParty]),
                    action: .block)
            }
            if kind < 97 {
                let host = hosts[random.next(below: hosts.count)]
                let owners = (0...random.next(below: 6)).map { _ in Self.hostPrefix + Self.escaped(site()) + "[:/]" }
                return ContentRule(
                    trigger: Trigger(urlFilter: Self.hostPrefix + Self.escaped(host) + "[:/]", condition: .ifTopURL(owners)),
                    action: .ignorePreviousRules)
            }
            if kind < 99, !paths.isEmpty {
                let (host, path) = paths[random.next(below: paths.count)]
                return ContentRule(
                    trigger: Trigger(
                        urlFilter: Self.hostPrefix + Self.escaped(host) + "(:[0-9]+)?/" + Self.escaped(path),
                        resourceTypes: [random.next(below: 2) == 0 ? .script : .fetch]),
                    action: .ignorePreviousRules)
            }
            let domains = (0...random.next(below: 3)).map { _ in "*" + site() }
            return ContentRule(
                trigger: Trigger(urlFilter: ".*", condition: .ifDomain(domains)),
                action: .cssDisplayNone(selector: ".ad-banner-\(index)"))
        }

        /// `count` requests in pages of `perPage`: 30% to a blocked host (or a subdomain), 10% to a
        /// blocked path, 5% first-party, the rest to hosts the list does not name.
        mutating func requests(count: Int, perPage: Int) -> [Request] {
            var requests: [Request] = []
            requests.reserveCapacity(count)
            let types: [ResourceType] = [.image, .script, .fetch, .styleSheet]
            while requests.count < count {
                let page = site()
                let topURL = "https://www.\(page)/article/\(requests.count)"
                for index in 0..<min(perPage, count - requests.count) {
                    let kind = random.next(below: 100)
                    let url: String
                    if kind < 30, !hosts.isEmpty {
                        let subdomains = ["", "cdn.", "a.b."]
                        url = "https://\(subdomains[random.next(below: subdomains.count)])\(hosts[random.next(below: hosts.count)])/t.js?i=\(index)"
                    } else if kind < 40, !paths.isEmpty {
                        let (host, path) = paths[random.next(below: paths.count)]
                        url = "https://\(host)/\(path)?v=\(index)"
                    } else if kind < 45 {
                        url = "https://static.\(page)/img/\(index).png"
                    } else {
                        var host = name() + ".com"
                        while hostSet.contains(host) { host = name() + ".com" }
                        url = "https://\(host)/lib/\(index).js"
                    }
                    requests.append(Request(url: url, topURL: topURL, resourceType: types[random.next(below: types.count)]))
                }
            }
            return requests
        }

        private mutating func newHost(index: Int) -> String {
            // The index in base 36 makes every host unique; the random part makes them look real.
            let host = name() + String(index, radix: 36) + ".com"
            hosts.append(host)
            hostSet.insert(host)
            return host
        }

        private mutating func site() -> String { sites[random.next(below: sites.count)] }

        private mutating func name() -> String {
            let letters = Array("abcdefghijklmnopqrstuvwxyz".unicodeScalars)
            var text = ""
            for _ in 0..<(4 + random.next(below: 7)) { text.unicodeScalars.append(letters[random.next(below: letters.count)]) }
            return text
        }

        /// `text` with the characters WebKit's url-filter treats specially escaped.
        private static func escaped(_ text: String) -> String {
            var result = ""
            for character in text {
                if ".?*+$^[](){}|\\".contains(character) { result.append("\\") }
                result.append(character)
            }
            return result
        }
    }

    /// Sebastiano Vigna's SplitMix64: small, fast and the same on every platform, so every run
    /// generates the same lists.
    struct SplitMix64 {
        private var state: UInt64

        /// A generator starting from `seed`.
        init(seed: UInt64) { state = seed }

        /// The next 64 random bits.
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }

        /// A number from 0 up to, not including, `bound` (which must be positive).
        mutating func next(below bound: Int) -> Int {
            Int(next() % UInt64(max(1, bound)))
        }
    }
}
