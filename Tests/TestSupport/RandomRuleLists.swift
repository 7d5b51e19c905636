/// A seeded generator of random WebKit content rule lists, for differential tests of matchers.
///
/// Every list stays inside what WebKit accepts (its url-filter regex subset, one condition per
/// trigger, valid flag names), and draws its hosts and words from ``RandomVocabulary``, which
/// ``RandomRequests`` uses too, so that rules actually match the generated loads. The lists cover
/// host-anchored and arbitrary patterns, universal patterns (`.*`, `$`, `a?`), case-sensitive
/// flags, every condition kind, every flag kind, every action type and duplicates (so that
/// WebKit's action deduplication and css merging are exercised).
///
/// Lists are JSON text, rule by rule, so that a failing list can be shrunk by dropping rules and
/// printed as WebKit would be given it.
///
/// ```swift
/// var lists = RandomRuleLists(seed: 7)
/// let list = lists.next()          // RandomRuleLists.List
/// let parsed = try RuleList(parsing: list.json)
/// ```
public struct RandomRuleLists: Sendable {
    /// One generated rule list.
    public struct List: Sendable, Hashable, CustomStringConvertible {
        /// The rules, each a JSON object's text, in list order.
        public var rules: [String]

        /// Creates a list from rule objects' JSON text.
        public init(rules: [String]) {
            self.rules = rules
        }

        /// The list as WebKit is given it: a JSON array of the rules.
        public var json: String { "[" + rules.joined(separator: ",") + "]" }

        /// The list, one rule per line, for failure reports.
        public var description: String { "[\n  " + rules.joined(separator: ",\n  ") + "\n]" }

        /// The list without the rule at `index`.
        public func removingRule(at index: Int) -> List {
            var copy = self
            copy.rules.remove(at: index)
            return copy
        }
    }

    /// The generator's randomness; its state fixes every following list.
    public var random: SplitMixGenerator

    /// The most rules a list gets (duplicates included).
    public var maximumRuleCount: Int

    /// A generator whose lists are fixed by `seed`.
    public init(seed: UInt64, maximumRuleCount: Int = 16) {
        random = SplitMixGenerator(seed: seed)
        self.maximumRuleCount = max(1, maximumRuleCount)
    }

    /// The next random list (1 to ``maximumRuleCount`` rules).
    public mutating func next() -> List {
        next(actions: Self.allActionKinds)
    }

    /// The next random list whose actions are drawn from `actions` (for example only what a web
    /// view lets a test observe).
    public mutating func next(actions: [ActionKind]) -> List {
        let count = random.int(in: 1...maximumRuleCount)
        var rules: [String] = []
        var triggers: [String] = []
        while rules.count < count {
            if !rules.isEmpty, random.chance(0.2) {
                // An exact duplicate, or the same trigger with another action: both share or
                // merge action locations in WebKit.
                if random.chance(0.5) {
                    rules.append(random.pick(rules))
                } else {
                    rules.append(rule(trigger: random.pick(triggers), action: action(from: actions)))
                }
                continue
            }
            let newTrigger = trigger()
            triggers.append(newTrigger)
            rules.append(rule(trigger: newTrigger, action: action(from: actions)))
        }
        return List(rules: rules)
    }

    private func rule(trigger: String, action: String) -> String {
        #"{"trigger":"# + trigger + #","action":"# + action + "}"
    }

    // MARK: - Actions

    /// An action type of WebKit's content rule lists.
    public enum ActionKind: String, Sendable, CaseIterable {
        /// `block`.
        case block = "block"
        /// `block-cookies`.
        case blockCookies = "block-cookies"
        /// `css-display-none` with a selector.
        case cssDisplayNone = "css-display-none"
        /// `ignore-previous-rules`.
        case ignorePreviousRules = "ignore-previous-rules"
        /// `ignore-following-rules`.
        case ignoreFollowingRules = "ignore-following-rules"
        /// `make-https`.
        case makeHTTPS = "make-https"
        /// `notify` with a notification string.
        case notify = "notify"
        /// `redirect` to a URL or an extension path.
        case redirect = "redirect"
        /// `modify-headers` with a priority.
        case modifyHeaders = "modify-headers"
    }

    /// Every action type, weighted towards blocking and the ignore rules, which decide most.
    public static let allActionKinds: [ActionKind] =
        [.block, .block, .block, .blockCookies, .cssDisplayNone, .cssDisplayNone, .ignorePreviousRules,
         .ignorePreviousRules, .ignoreFollowingRules, .makeHTTPS, .notify, .redirect, .modifyHeaders]

    /// What a web view lets a test observe about a load: whether it was blocked.
    public static let observableActionKinds: [ActionKind] =
        [.block, .block, .block, .ignorePreviousRules, .ignorePreviousRules, .ignoreFollowingRules, .blockCookies]

    private mutating func action(from kinds: [ActionKind]) -> String {
        let kind = random.pick(kinds)
        switch kind {
        case .cssDisplayNone:
            let selector = random.pick([".ad", "#banner", "div.ad", "a[href*=track]", ".x, .y", "img"])
            return #"{"type":"css-display-none","selector":"# + Self.quoted(selector) + "}"
        case .notify:
            return #"{"type":"notify","notification":"# + Self.quoted(random.pick(["n1", "n2", "tracker"])) + "}"
        case .redirect:
            let target = random.chance(0.5)
                ? #"{"url":"https://c.test/redirected"}"# : #"{"extension-path":"/r.js"}"#
            return #"{"type":"redirect","redirect":"# + target + "}"
        case .modifyHeaders:
            let priority = random.int(in: 0...2)
            return #"{"type":"modify-headers","priority":\#(priority),"request-headers":[{"operation":"set","header":"x-t","value":"1"}]}"#
        default:
            return #"{"type":""# + kind.rawValue + #""}"#
        }
    }

    // MARK: - Triggers

    private mutating func trigger() -> String {
        var members = [#""url-filter":"# + Self.quoted(urlFilter())]
        if random.chance(0.15) { members.append(#""url-filter-is-case-sensitive":true"#) }
        if random.chance(0.3) {
            let types = subset(of: RandomVocabulary.resourceTypes, maximumCount: 3)
            members.append(#""resource-type":"# + Self.array(types))
        }
        if random.chance(0.2) {
            members.append(#""load-type":"# + Self.array(subset(of: ["first-party", "third-party"], maximumCount: 2)))
        }
        if random.chance(0.15) {
            members.append(#""load-context":"# + Self.array(subset(of: ["top-frame", "child-frame"], maximumCount: 2)))
        }
        let hasMethod = random.chance(0.1)
        if hasMethod {
            let method = random.pick(RandomVocabulary.methods)
            members.append(#""request-method":"# + Self.quoted(random.chance(0.2) ? method.uppercased() : method))
        }
        // WebKit never applies an if-condition together with a request method (and always an
        // unless-condition); keep the combination rare but present.
        if random.chance(hasMethod ? 0.15 : 0.45) {
            members += condition()
        }
        return "{" + members.joined(separator: ",") + "}"
    }

    private mutating func condition() -> [String] {
        var members: [String] = []
        switch random.int(in: 0...5) {
        case 0, 1:
            let key = random.chance(0.5) ? "if-domain" : "unless-domain"
            let domains = (0..<random.int(in: 1...3)).map { _ in
                (random.chance(0.4) ? "*" : "") + random.pick(RandomVocabulary.hosts)
            }
            members.append("\"\(key)\":" + Self.array(domains))
            if random.chance(0.1) { members.append(#""top-url-filter-is-case-sensitive":true"#) }
        case 2, 3:
            let key = random.chance(0.5) ? "if-top-url" : "unless-top-url"
            members.append("\"\(key)\":" + Self.array((0..<random.int(in: 1...2)).map { _ in conditionPattern() }))
            if random.chance(0.15) { members.append(#""top-url-filter-is-case-sensitive":true"#) }
        default:
            let key = random.chance(0.5) ? "if-frame-url" : "unless-frame-url"
            members.append("\"\(key)\":" + Self.array((0..<random.int(in: 1...2)).map { _ in conditionPattern() }))
            if random.chance(0.15) { members.append(#""frame-url-filter-is-case-sensitive":true"#) }
        }
        return members
    }

    private mutating func conditionPattern() -> String {
        switch random.int(in: 0...5) {
        case 0, 1: hostAnchoredPattern(host: random.pick(RandomVocabulary.hosts))
        case 2: "^https?://" + Self.escaped(random.pick(RandomVocabulary.hosts)) + "/"
        case 3: random.pick(RandomVocabulary.pathWords)
        case 4: random.pick(Self.universalPatterns)
        default: randomPattern()
        }
    }

    // MARK: - url-filter patterns

    /// Patterns WebKit treats as matching every URL.
    static let universalPatterns = [".*", "$", "a?", "^$", "(foo)?", "[a-z]*", "^a?", "(.*)", ".*$"]

    private mutating func urlFilter() -> String {
        switch random.int(in: 0...11) {
        case 0, 1, 2: hostAnchoredPattern(host: random.pick(RandomVocabulary.hosts))
        case 3: "^[^:]+://+" + Self.escaped(random.pick(RandomVocabulary.hosts)) + "(:[0-9]+)?/"
            + random.pick(RandomVocabulary.pathWords)
        case 4: "^https?://" + (random.chance(0.5) ? Self.escaped(random.pick(RandomVocabulary.hosts)) : "")
        case 5: random.pick(RandomVocabulary.pathWords)
        case 6: random.chance(0.5) ? Self.escaped(random.pick(RandomVocabulary.hosts)) : random.pick(RandomVocabulary.hosts)
        case 7: random.pick(Self.universalPatterns)
        default: randomPattern()
        }
    }

    /// DuckDuckGo's and Apple's host pattern (the host or any subdomain, then a port or a path)
    /// most of the time; otherwise one of its near variants, which a matcher that recognizes host
    /// patterns must not mistake for it.
    private mutating func hostAnchoredPattern(host: String) -> String {
        let escaped = Self.escaped(host)
        if random.chance(0.5) {
            // The built shapes: userinfo or subdomains, the final dot, a port and the path.
            return random.pick([
                "^[^:]+://+([^:/]+\\.)?" + escaped + "[:/]", "^[^:]+://+([^/]+[.@])?" + escaped + "\\.?(:[0-9]+)?/",
                "^[^:]+://+([^/]*@)?" + escaped + "\\.?(:[0-9]+)?/" + random.pick(RandomVocabulary.pathWords),
                "^[^:]+://+([^/]+[.@])?" + escaped + "[:/]",
            ])
        }
        if random.chance(0.3) { return "^[^:]+://+" + escaped + "(:[0-9]+)?/" }
        let suffix = random.chance(0.25) ? random.pick([Self.escaped(random.pick(RandomVocabulary.pathWords)), ".*ad", "\\?"]) : ""
        return random.pick([
            "^https?://([^/]*\\.)?" + escaped + "/",
            "^[^:]+://([^:/]+\\.)?" + escaped + "[:/]",
            "^[a-z]+://" + escaped + "/",
            "^[^:]+://+([^:/]+\\.)?" + escaped,
            "^[^:]+://+([^:/]+\\.)+" + escaped + "[:/]",
            "^[^:]+://+[^:/]*" + escaped + "[:/]",
            "([^:/]+\\.)?" + escaped + "[:/]",
            "://" + escaped + "/",
            "^[^:]*://+([^:/]+\\.)?" + escaped + "[:/]",
            "^[^:]+://+([^:/]+\\.)?" + escaped + "[:/]?",
            "^[^:]+:/+([^:/]+\\.)?" + escaped + "[:/]",
            "^[^:]+://+([^/]+\\.)?" + escaped + "(:[0-9]*)?/",
            "^[^:]+://+([^:/]+\\.)?" + escaped.uppercased() + "[:/]",
            "^[^:]+://+([^/]*[.@])?" + escaped + "\\.?[:/]", "^[^:]+://+([^/]+@)?" + escaped + "\\.?/",
            "^[^:]+://+([^:/]+[.@])?" + escaped + "\\.*/", "^[^:]+://+([^/]+\\.)?" + escaped + "(\\.)?[:/]",
        ]) + suffix
    }

    /// A pattern assembled from the subset's atoms: literals, sets, `.`, groups, quantifiers,
    /// with an optional leading `^` and trailing `$`.
    private mutating func randomPattern() -> String {
        var pattern = random.chance(0.25) ? "^" : ""
        if !pattern.isEmpty, random.chance(0.6) {
            pattern += random.pick(["https?://", "[^:]+://", "http://", "ws"])
        }
        for _ in 0..<random.int(in: 1...4) {
            pattern += atom(depth: 0)
        }
        if random.chance(0.2) { pattern += "$" }
        return pattern
    }

    private mutating func atom(depth: Int) -> String {
        var atom: String
        switch random.int(in: 0...9) {
        case 0, 1, 2: atom = Self.escaped(random.pick(RandomVocabulary.pathWords))
        case 3: atom = random.pick(["[a-c]", "[^/]", "[0-9]", "[A-Z]", "[./]", "[^a-z]", "[?=&]"])
        case 4: atom = "."
        case 5: atom = ".*"
        case 6: atom = random.pick(["\\.", "/", "\\?", "=", ":", "\\/"])
        case 7: atom = Self.escaped(random.pick(RandomVocabulary.hosts))
        default:
            if depth < 2 {
                var inner = ""
                for _ in 0..<random.int(in: 1...2) { inner += self.atom(depth: depth + 1) }
                atom = (random.chance(0.2) ? "(?:" : "(") + inner + ")"
            } else {
                atom = random.pick(["a", "b", "x"])
            }
        }
        // A quantifier on an atom that already ends in one would be a YARR syntax error.
        if !atom.hasSuffix("*"), random.chance(0.3) {
            atom += random.pick(["?", "*", "+"])
        }
        return atom
    }

    // MARK: - JSON

    private mutating func subset(of elements: [String], maximumCount: Int) -> [String] {
        var chosen: [String] = []
        for _ in 0..<random.int(in: 1...maximumCount) {
            let element = random.pick(elements)
            if !chosen.contains(element) { chosen.append(element) }
        }
        return chosen
    }

    /// `text` escaped for a url-filter: every regex metacharacter made literal.
    public static func escaped(_ text: String) -> String {
        var escaped = ""
        for character in text {
            if "\\^$.|?*+()[]{}/".contains(character) { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }

    /// `text` as a JSON string literal.
    public static func quoted(_ text: String) -> String {
        var quoted = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": quoted += "\\\""
            case "\\": quoted += "\\\\"
            case "\n": quoted += "\\n"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    quoted += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    quoted.unicodeScalars.append(scalar)
                }
            }
        }
        return quoted + "\""
    }

    private static func array(_ strings: [String]) -> String {
        "[" + strings.map(quoted).joined(separator: ",") + "]"
    }
}
