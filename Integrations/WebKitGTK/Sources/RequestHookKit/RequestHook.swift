import ContentRuleList
import NavigationProtections
import RuleEngineKit
import TrackerDataKit
import TrackerlessCore

/// Decides each request of a web process: blocked by the engine of the current protection set
/// (engine mode), and the headers of the navigation protections (every mode): `Sec-GPC` where
/// Global Privacy Control applies, `Referer` trimmed where referrer trimming says so.
///
/// One per web process, used on its main thread (`send-request` runs there): it keeps the
/// engine's page cache.
public final class RequestHook {
    /// The configuration it was made with.
    public let configuration: RequestHookConfiguration
    private let engine: RuleEngine?
    private var pageCache = RuleEngine.PageCache()
    /// The navigation protections (their headers); nil without navigation data.
    private let protector: NavigationProtector?
    private let sitesOff: UserAllowlist

    /// Loads what `configuration` names: the engine, and the navigation protections composed
    /// from the set's navigation data (what they read of its privacy configuration and blocklist,
    /// written by the one build) as a set composes them, Sec-GPC on every request where GPC
    /// applies. No tds.json and no configuration is parsed here.
    ///
    /// - Throws: ``RequestHookError`` naming the file that could not be read or parsed.
    public init(configuration: RequestHookConfiguration) throws(RequestHookError) {
        self.configuration = configuration
        sitesOff = UserAllowlist(domains: configuration.sitesWithProtectionOff)
        if configuration.blocksRequests {
            let bytes: [UInt8]
            do throws(FileError) {
                bytes = try FileIO.read(path: configuration.enginePath)
            } catch {
                throw .engine(path: configuration.enginePath, detail: error.description)
            }
            do throws(CompiledEngineError) {
                engine = try RuleEngine(compiled: bytes)
            } catch {
                throw .engine(path: configuration.enginePath, detail: error.description)
            }
        } else {
            engine = nil
        }
        guard !configuration.navigationDataPath.isEmpty else {
            protector = nil
            return
        }
        let data: NavigationProtectionData
        do throws(TrackerDataError) {
            let bytes: [UInt8]
            do throws(FileError) {
                bytes = try FileIO.read(path: configuration.navigationDataPath)
            } catch {
                throw .unreadable(error)
            }
            data = try NavigationProtectionData(parsing: bytes)
        } catch {
            throw .navigationData(path: configuration.navigationDataPath, detail: error.description)
        }
        protector = NavigationProtector(
            data, userAllowlist: sitesOff, gpcOnForUser: configuration.globalPrivacyControl, gpcHeaderScope: .everyRequest)
    }

    /// The rule that blocked `request`: the first list's rule whose action is `block`, as
    /// `trackerless decide --explain` names it. Asked only of a blocked request, so that an
    /// allowed one costs what it did (``RuleEngineKit/RuleEngine/decision(for:cache:)`` alone).
    private func blockingRule(_ engine: RuleEngine, _ request: Request) -> BlockingRule? {
        for (list, listActions) in engine.actions(for: request, cache: &pageCache).lists.enumerated() {
            if let rule = zip(listActions.actions, listActions.ruleIndices).first(where: { $0.0 == .block })?.1 {
                return BlockingRule(list: list, rule: rule)
            }
        }
        return nil
    }

    /// The verdict for `request`: blocked, with the rule that blocked it
    /// (``RequestVerdict/blockingRule``), or the headers to set.
    public func verdict(for request: HookedRequest) -> RequestVerdict {
        let isMainDocument = request.isMainDocument
        // The page whose protection applies: a navigation's destination, else the page's.
        let topURL = isMainDocument ? request.url : (request.topURL ?? request.url)
        if let host = CanonicalURL(topURL)?.host, !host.isEmpty, sitesOff.contains(host: host) {
            return RequestVerdict(isBlocked: false)
        }
        if let engine {
            let engineRequest = request.engineRequest
            if engine.decision(for: engineRequest, cache: &pageCache).isBlocked {
                return RequestVerdict(isBlocked: true, blockingRule: blockingRule(engine, engineRequest))
            }
        }
        var verdict = RequestVerdict(isBlocked: false)
        verdict.globalPrivacyControl = protector?.globalPrivacyControl.headerValue(topURL: topURL)
        if let referrerTrimming = protector?.referrerTrimming, let referrer = request.referrer {
            let trimmed = isMainDocument
                ? referrerTrimming.navigationReferrer(referrer, from: referrer, to: request.url)
                : referrerTrimming.subrequestReferrer(referrer, topURL: topURL, requestURL: request.url)
            if let trimmed, trimmed != referrer { verdict.trimmedReferrer = trimmed }
        }
        return verdict
    }
}
