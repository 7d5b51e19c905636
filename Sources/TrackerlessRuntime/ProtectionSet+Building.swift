import ContentRuleList
import RuleBuilder
import RuleEngineKit
import TrackerDataKit
import UserScripts

extension ProtectionSet {
    /// A set and what the cache stores of it.
    struct Artifacts: Sendable {
        let set: ProtectionSet
        /// The engine's compiled file.
        let compiledEngine: [UInt8]
        /// Per script name, the UTF-8 offsets of its secret.
        let secretOffsets: [String: [Int]]
    }

    /// Builds every artifact from parsed inputs and checks each; nothing is returned unless all
    /// are valid.
    ///
    /// - Throws: ``ProtectionError/invalidArtifact(artifact:detail:)`` naming the rule list and
    ///   WebKit's error, or ``ProtectionError/invalidInput(_:detail:)`` for the script settings.
    static func build(identifier: String, parsed: ParsedInputs, secret: ScriptSecret) throws(ProtectionError) -> Artifacts {
        let blocking = RuleListBuilder(
            trackerData: parsed.trackerData, configuration: parsed.configuration, userAllowlist: parsed.userAllowlist
        ).build()
        var lists = try encode(blocking.ruleLists(unblocking: Set(blocking.clickToLoadActions.compactMap { $0 })), kind: .blocking)
        for (index, (list, action)) in zip(blocking.ruleLists, blocking.clickToLoadActions).filter({ $0.1 != nil }).enumerated() {
            lists += try encode([list], kind: .clickToLoad, firstIndex: index, clickToLoadAction: action)
        }
        if CookieProtection.Settings(configuration: parsed.configuration).isEnabled {
            let cookies = CookieRules(
                trackerData: parsed.trackerData, configuration: parsed.configuration, userAllowlist: parsed.userAllowlist
            ).build()
            lists += try encode(cookies.ruleLists, kind: .cookies)
        }

        let engine: RuleEngine
        do throws(RuleListError) {
            engine = try RuleEngine(ruleLists: blocking.ruleLists)
        } catch {
            throw .invalidArtifact(artifact: "rule engine", detail: error.description)
        }

        let rendered: RenderedScripts
        do throws(ScriptRenderError) {
            rendered = try ScriptRenderer(settings: parsed.settings).render(
                trackerData: parsed.trackerData, privacyConfiguration: parsed.configuration,
                userAllowlist: parsed.userAllowlist, surrogates: parsed.surrogates, secret: secret)
        } catch {
            throw .invalidInput(.scriptSettings, detail: error.description)
        }
        let scripts = [
            UserScript(name: blockingScriptName, source: rendered.blocking.source, world: .page),
            UserScript(name: inferenceScriptName, source: rendered.inference.source, world: isolatedWorld),
        ]
        var offsets: [String: [Int]] = [:]
        for script in scripts {
            // The secret is random, so nothing else in the source can spell it.
            offsets[script.name] = ScriptSecret.offsets(of: Array(secret.value.utf8), in: Array(script.source.utf8))
            guard offsets[script.name]?.isEmpty == false else {
                throw .invalidArtifact(artifact: "script \(script.name)", detail: "carries no secret")
            }
        }

        let notes = (blocking.report.inputWarnings.map(\.description) + blocking.report.skippedRules.map(\.description)
            + rendered.warnings.map(\.description))
        let set = ProtectionSet(
            identifier: identifier, ruleLists: lists, scripts: scripts, messageHandlerName: parsed.settings.handler,
            secret: secret, resolver: parsed.resolver(), engine: engine, origin: .built, notes: notes)
        return Artifacts(set: set, compiledEngine: engine.compiled(), secretOffsets: offsets)
    }

    /// Encodes and checks lists: what WebKit would refuse is an error, never installed.
    private static func encode(
        _ lists: [RuleList], kind: EncodedRuleList.Kind, firstIndex: Int = 0, clickToLoadAction: String? = nil
    ) throws(ProtectionError) -> [EncodedRuleList] {
        var encoded: [EncodedRuleList] = []
        for (index, list) in lists.enumerated() {
            let result = EncodedRuleList(
                kind: kind, index: firstIndex + index, json: list.encoded(), ruleCount: list.rules.count,
                clickToLoadAction: clickToLoadAction)
            do throws(RuleListError) {
                if list.rules.count > RuleList.maximumRuleCount { throw RuleListError(.tooManyRules) }
                try list.validateTriggers()
            } catch {
                throw .invalidArtifact(artifact: "rule list \(result.identifier)", detail: error.description)
            }
            encoded.append(result)
        }
        return encoded
    }
}

/// Where a secret stands in a script's source.
enum SecretOffsets {
    /// `bytes` with `secret` written at `offsets`; nil when an offset does not fit.
    static func write(_ secret: String, into bytes: [UInt8], at offsets: [Int]) -> [UInt8]? {
        let text = Array(secret.utf8)
        var bytes = bytes
        for offset in offsets {
            guard offset >= 0, offset + text.count <= bytes.count else { return nil }
            bytes.replaceSubrange(offset..<offset + text.count, with: text)
        }
        return bytes
    }
}
