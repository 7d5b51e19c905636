import ContentRuleList
import RuleBuilder
import RuleEngineKit
import TrackerDataKit
import TrackerlessCore
import UserScripts

extension ProtectionSet {
    /// A set and what the cache stores of it beside the set itself.
    struct Artifacts: Sendable {
        let set: ProtectionSet
        /// Per script name, the UTF-8 offsets of its secret.
        let secretOffsets: [String: [Int]]
        /// The scripts as rendered: their sizes, content hashes and warnings.
        let rendered: RenderedScripts
    }

    /// Builds every artifact from parsed inputs and checks each; nothing is returned unless all
    /// are valid.
    ///
    /// The work runs on two threads (``Parallel``) in two rounds of about equal halves: first
    /// the blocking rules, not yet checked, beside the cookie rules; then the engine compiled
    /// from the blocking rules and the resolver, beside the blocking rules' check
    /// (``ContentRuleList/RuleList/validateTriggers()``), their lists encoded, the scripts and
    /// the cookie lists encoded and checked. Should the check refuse a rule (an input WebKit would refuse),
    /// the blocking rules are built again with ``RuleBuilder/RuleListBuilder/build()``, which
    /// leaves that input out and says so, and the engine and lists are made from those.
    ///
    /// - Throws: ``ProtectionError/invalidArtifact(artifact:detail:)`` naming the rule list and
    ///   WebKit's error, or ``ProtectionError/invalidInput(_:detail:)`` for the script settings, or
    ///   for a privacy configuration whose rules, which end every list, cannot fit beside the
    ///   trackers' rules (``RuleBuilder/RuleListBuild/refusal``).
    static func build(identity: String, parsed: ParsedInputs, secret: ScriptSecret) throws(ProtectionError) -> Artifacts {
        // The rule list stage (ParsedInputs+RuleLists), its steps run beside the other work.
        let builder = parsed.blockingRuleBuilder()
        let (unchecked, cookieRules) = Parallel.both(
            { builder.build(checkingTriggers: false) },
            { parsed.cookieRuleBuild() })
        if let refusal = unchecked.refusal ?? cookieRules.refusal { throw ParsedInputs.error(refusing: refusal) }
        let ((uncheckedEngine, resolver, navigationData), (isValid, uncheckedLists, renderedResult, cookieResult)) = Parallel.both(
            { (compileEngine(unchecked), parsed.resolver(), parsed.navigationData()) },
            {
                let isValid = parsed.areValid(unchecked)
                return (isValid, isValid ? Result { () throws(ProtectionError) in try encodeBlockingLists(unchecked) } : nil,
                        Result { () throws(ProtectionError) in try parsed.renderedScripts(secret: secret) },
                        Result { () throws(ProtectionError) in
                            try encode(cookieRules.ruleLists, kind: .cookies, triggersChecked: true, target: parsed.webKit)
                        })
            })
        let blocking = try parsed.checked(unchecked, isValid: isValid, builder: builder)
        var engineResult = uncheckedEngine
        var listsResult: Result<[EncodedRuleList], ProtectionError>
        if isValid, let uncheckedLists {
            listsResult = uncheckedLists
        } else {
            engineResult = compileEngine(blocking)
            listsResult = Result { () throws(ProtectionError) in try encodeBlockingLists(blocking) }
        }
        // Errors in the order of a build on one thread: the blocking lists, the engine, the
        // cookie lists, the scripts.
        let lists = try listsResult.get()
        let engine = try engineResult.get()
        let cookieLists = try cookieResult.get()
        let rendered = try renderedResult.get()

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

        let notes = (blocking.report.inputWarnings.map(\.description) + blocking.report.skippedRules.map(namingItsInput)
            + cookieRules.report.skippedRules.map { "cookie rules: " + namingItsInput($0) } + rendered.warnings.map(\.description)
            + (blocking.report.listSizes + cookieRules.report.listSizes).map { "size: \($0)" })
        let set = ProtectionSet(
            identity: identity, ruleLists: lists + cookieLists, scripts: scripts,
            messageHandlerName: parsed.settings.handler, secret: secret,
            inputs: DeferredInputs(parsed: parsed, resolver: resolver), engine: engine, origin: .built, notes: notes,
            ruleSources: EngineRuleSources(.built(blocking.sources)), navigationData: navigationData.encoded,
            navigationProtectionData: navigationData.decoded)
        return Artifacts(set: set, secretOffsets: offsets, rendered: rendered)
    }

    /// The engine compiled from the blocking lists.
    private static func compileEngine(_ blocking: RuleListBuild) -> Result<RuleEngine, ProtectionError> {
        Result { () throws(ProtectionError) in
            do throws(RuleListError) {
                return try RuleEngine(ruleLists: blocking.ruleLists)
            } catch {
                throw .invalidArtifact(artifact: "rule engine", detail: error.description)
            }
        }
    }

    /// The blocking lists encoded: the main lists without the Click-to-Load rules, then one list
    /// per Click-to-Load action, which a host removes for a page when the user clicks to load.
    ///
    /// Their triggers are not checked here: ``build(identity:parsed:secret:)`` checked them,
    /// or had ``RuleBuilder/RuleListBuilder/build()`` check them, with the same
    /// ``ContentRuleList/RuleList/validateTriggers()`` (40 ms of an update's CPU on apple-tds,
    /// spent twice before).
    private static func encodeBlockingLists(_ blocking: RuleListBuild) throws(ProtectionError) -> [EncodedRuleList] {
        var lists = try encode(
            blocking.ruleLists(unblocking: Set(blocking.clickToLoadActions.compactMap { $0 })), kind: .blocking, triggersChecked: true)
        for (index, (list, action)) in zip(blocking.ruleLists, blocking.clickToLoadActions).filter({ $0.1 != nil }).enumerated() {
            lists += try encode([list], kind: .clickToLoad, firstIndex: index, clickToLoadAction: action, triggersChecked: true)
        }
        return lists
    }

    /// A build note with the input its JSON path is in: `tds: trackers["x.com"]: …`,
    /// `privacy configuration: features.trackerAllowlist…: …`.
    private static func namingItsInput(_ note: BuildReport.Note) -> String {
        let first = note.path.prefix { $0 != "." && $0 != "[" }
        let input: ProtectionInput? =
            switch first {
            case "trackers", "cnames", "domains", "entities": .trackerData
            case "features", "unprotectedTemporary": .privacyConfiguration
            default: nil
            }
        return input.map { "\($0): \(note)" } ?? note.description
    }

    /// The cookie rules where the configuration turns cookie protection on (their triggers
    /// checked, an input WebKit would refuse left out and noted); none where it does not.
    /// Encodes and checks lists: what WebKit would refuse is an error, never installed. With
    /// `triggersChecked`, lists whose triggers their builder checked already: only their size.
    private static func encode(
        _ lists: [RuleList], kind: EncodedRuleList.Kind, firstIndex: Int = 0, clickToLoadAction: String? = nil,
        triggersChecked: Bool = false, target: WebKitTarget = .newest
    ) throws(ProtectionError) -> [EncodedRuleList] {
        var encoded: [EncodedRuleList] = []
        for (index, list) in lists.enumerated() {
            let result = EncodedRuleList(
                kind: kind, index: firstIndex + index, json: list.encoded(), ruleCount: list.rules.count,
                clickToLoadAction: clickToLoadAction)
            do throws(RuleListError) {
                if list.rules.count > target.maximumRuleCount { throw RuleListError(.tooManyRules) }
                if !triggersChecked { try list.validateTriggers(for: target) }
            } catch {
                throw .invalidArtifact(artifact: "rule list \(result.identifier)", detail: error.description)
            }
            encoded.append(result)
        }
        return encoded
    }
}
