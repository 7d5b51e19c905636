import ContentRuleList
import NavigationProtections
public import RuleEngineKit
public import TrackerDataKit
public import TrackerlessCore
public import UserScripts

/// One immutable generation of protection: the rule lists, the two scripts with their worlds and
/// secret, the message handler's name, the resolver and the compiled rule engine, all made from
/// the same ``ProtectionInputs``.
///
/// A set never changes; an update makes a new one (``ProtectionRuntime/update(_:)``), so an
/// adapter that takes everything it installs from one set can never mix generations (rules of
/// one blocklist, scripts of another).
///
/// What an adapter does with it:
/// - each of ``ruleLists``: look up ``EncodedRuleList/identifier`` in the content filter store,
///   compile ``EncodedRuleList/json`` under that identifier only when it is missing, add the
///   list; remove the store's identifiers that ``isStale(ruleListIdentifier:)`` calls stale;
/// - each of ``scripts``: add it at document start, all frames, in its ``UserScript/world``;
/// - register a script message handler named ``messageHandlerName`` in every world of
///   ``messageHandlerWorlds`` and hand each message to ``ProtectionRuntime/receive(_:tab:)-(MessageBody,_)``.
///
/// Which of these a given navigation gets is the runtime's answer
/// (``ProtectionRuntime/navigationPlan(for:)-(String)``): a site whose protection is off gets no rule
/// list and no blocking script.
public final class ProtectionSet: Sendable {
    /// Where a set came from.
    public enum Origin: String, Sendable, Hashable {
        /// Built from the inputs: rule lists, scripts and engine made now.
        case built
        /// Loaded from the cache directory, its checksums verified: nothing rebuilt.
        case cache
    }

    /// The version of the code that builds a set, part of ``identity``: a release that builds
    /// different artifacts from the same inputs changes it, so that no cache of an older build is
    /// loaded.
    public static let sdkVersion = "trackerless-runtime 3"
    /// The name of the blocking script (page world).
    public static let blockingScriptName = "blocking.js"
    /// The name of the inference script (isolated world).
    public static let inferenceScriptName = "inference.js"
    /// The isolated world of the inference script.
    public static let isolatedWorld = ScriptWorld.isolated(name: "trackerless")

    /// The set identity: a hash (64 hex digits) of the SDK version, the templates, the WebKit
    /// target, the inputs' bytes and the script settings, so two sets with one identity have the
    /// same rules, scripts and engine. Each input counts by its XXH64 under two seeds (128 bits
    /// against an accidental change), and the list of them by its SHA-256. The cache keeps a set
    /// under it; it names a set, never a rule list (see ``EncodedRuleList/identifier``).
    public let identity: String
    /// The set identity, by its former name.
    @available(*, unavailable, renamed: "identity")
    public var identifier: String { identity }
    /// The WebKit content rule lists to install: the blocking lists, then one Click-to-Load list
    /// per rule action, then the cookie lists when the privacy configuration turns cookie
    /// protection on.
    public let ruleLists: [EncodedRuleList]
    /// The blocking script (page world), then the inference script (isolated world).
    public let scripts: [UserScript]
    /// The name the scripts post their messages to (`ScriptSettings.handler`).
    public let messageHandlerName: String
    /// The secret every script message carries; the runtime accepts no other.
    public let secret: ScriptSecret
    /// The resolver of the inputs: the meaning of the rules. A set loaded from the cache makes
    /// it on first use (the blocklist parsed then; the runtime starts it in the background at
    /// launch), so the first call may wait for it.
    public var resolver: TrackerResolver { inputs.resolver }
    /// The blocking lists compiled, for hosts without a WebKit content blocker.
    public let engine: RuleEngine
    /// Built or loaded from the cache.
    public let origin: Origin
    /// What the build left out or approximated, and problems in the inputs, each with its place.
    public let notes: [String]
    /// The parsed inputs and the resolver, made on first use when the set came from the cache.
    let inputs: DeferredInputs
    /// ``navigationProtector``, made on first use.
    let navigationProtectorSlot = OnceValue<NavigationProtector>()
    /// ``navigationData`` decoded: what ``navigationProtector`` decides from. A set from the
    /// cache whose navigation data does not decode is a damaged generation, never loaded.
    let navigationProtectionData: NavigationProtectionData
    /// What each rule of ``engine`` was built from (``ruleSource(list:rule:)``).
    let ruleSources: EngineRuleSources
    /// What the navigation protections read of the set's privacy configuration and blocklist,
    /// encoded (NavigationProtections' `NavigationProtectionData`, in its own JSON format): what
    /// a process that sets the protections' headers loads instead of the inputs (the WebKitGTK
    /// adapter's web processes), the same decisions as ``navigationProtector``'s. Built with the
    /// set and kept in its cache beside the engine, so a set loaded from the cache has it without
    /// parsing the blocklist.
    public let navigationData: [UInt8]

    init(
        identity: String, ruleLists: [EncodedRuleList], scripts: [UserScript], messageHandlerName: String,
        secret: ScriptSecret, inputs: DeferredInputs, engine: RuleEngine, origin: Origin, notes: [String],
        ruleSources: EngineRuleSources, navigationData: [UInt8], navigationProtectionData: NavigationProtectionData
    ) {
        self.identity = identity
        self.ruleLists = ruleLists
        self.scripts = scripts
        self.messageHandlerName = messageHandlerName
        self.secret = secret
        self.inputs = inputs
        self.engine = engine
        self.origin = origin
        self.notes = notes
        self.ruleSources = ruleSources
        self.navigationData = navigationData
        self.navigationProtectionData = navigationProtectionData
    }

    /// The input that rule `rule` of ``engine``'s list `list` was built from (the tds tracker and
    /// its rule, or the configuration entry), as `RuleSource.jsonValue()` writes it: what an
    /// engine's applied action or blocking rule (`AppliedActions.ListActions.ruleIndices`) was
    /// made of, and what `PrivacyStatsKit.EngineRule.source` carries
    /// (``ProtectionRuntime/didObserve(_:tab:)`` fills it in). Nil when out of range.
    ///
    /// A set from the cache reads its sources file, checks it and decodes it on the first call
    /// (a launch does not read it); should the file have gone or been damaged since, nil.
    public func ruleSource(list: Int, rule: Int) -> JSONValue? {
        ruleSources.source(list: list, rule: rule)
    }

    /// The worlds the message handler must be registered in: those of the scripts.
    public var messageHandlerWorlds: [ScriptWorld] {
        var worlds: [ScriptWorld] = []
        for script in scripts where !worlds.contains(script.world) { worlds.append(script.world) }
        return worlds
    }

    /// The blocking script.
    public var blockingScript: UserScript? { scripts.first { $0.name == Self.blockingScriptName } }
    /// The inference script.
    public var inferenceScript: UserScript? { scripts.first { $0.name == Self.inferenceScriptName } }

    /// The rule lists for a page where the user clicked to load the embeds of `actions`
    /// (`block-ctl-fb`, the actions the blocking script's click message names): all of
    /// ``ruleLists`` but those actions' Click-to-Load lists. With no action, all of them.
    public func ruleLists(unblocking actions: Set<String>) -> [EncodedRuleList] {
        ruleLists.filter { list in list.clickToLoadAction.map { !actions.contains($0) } ?? true }
    }

    /// Whether a content filter store's identifier is one the runtime made for an earlier set and
    /// this set no longer uses: remove it from the store.
    public func isStale(ruleListIdentifier identifier: String) -> Bool {
        identifier.hasPrefix(EncodedRuleList.identifierPrefix) && !ruleLists.contains { $0.identifier == identifier }
    }

    /// The bytes the set holds: rule lists' JSON, scripts' sources and the engine's tables (the
    /// resolver's share is not counted).
    public var byteCount: Int {
        ruleLists.reduce(0) { $0 + $1.json.count } + scripts.reduce(0) { $0 + $1.source.utf8.count } + engine.memoryFootprint
    }
}
