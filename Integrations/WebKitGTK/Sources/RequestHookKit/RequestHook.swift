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
    private let globalPrivacyControl: GlobalPrivacyControl?
    private let referrerTrimming: ReferrerTrimming?
    private let sitesOff: UserAllowlist

    /// Loads what `configuration` names. The tds is parsed only when the privacy configuration
    /// turns referrer trimming on (the only protection here that needs its entities).
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
        guard !configuration.privacyConfigurationPath.isEmpty else {
            globalPrivacyControl = nil
            referrerTrimming = nil
            return
        }
        let privacyConfiguration: PrivacyConfiguration
        do throws(TrackerDataError) {
            privacyConfiguration = try PrivacyConfiguration(contentsOfFile: configuration.privacyConfigurationPath)
        } catch {
            throw .privacyConfiguration(path: configuration.privacyConfigurationPath, detail: error.description)
        }
        globalPrivacyControl = GlobalPrivacyControl(
            configuration: privacyConfiguration, isOnForUser: configuration.globalPrivacyControl, headerScope: .everyRequest,
            userAllowlist: sitesOff)
        let trims = privacyConfiguration.features[ReferrerTrimming.feature]?.state == .enabled
        if trims, !configuration.trackerDataPath.isEmpty {
            do throws(TrackerDataError) {
                let trackerData = try TrackerData(contentsOfFile: configuration.trackerDataPath)
                referrerTrimming = ReferrerTrimming(configuration: privacyConfiguration, trackerData: trackerData, userAllowlist: sitesOff)
            } catch {
                throw .trackerData(path: configuration.trackerDataPath, detail: error.description)
            }
        } else {
            referrerTrimming = nil
        }
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
        verdict.globalPrivacyControl = globalPrivacyControl?.headerValue(topURL: topURL)
        if let referrerTrimming, let referrer = request.referrer {
            let trimmed = isMainDocument
                ? referrerTrimming.navigationReferrer(referrer, from: referrer, to: request.url)
                : referrerTrimming.subrequestReferrer(referrer, topURL: topURL, requestURL: request.url)
            if let trimmed, trimmed != referrer { verdict.trimmedReferrer = trimmed }
        }
        return verdict
    }
}
