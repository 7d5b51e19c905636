import TrackerDataKit
import TrackerlessCore

extension PageStats {
    /// The page's dashboard snapshot; `tab` only labels it.
    ///
    /// Costs time in the number of distinct trackers on the page, not in the number of events.
    public func snapshot(tab: TabID? = nil) -> PageSnapshot {
        var companies: [String: PageSnapshot.CompanyTrackers] = [:]
        var reasons: [AllowedReason: Int] = [:]
        var categories: [FirefoxCategory: (blocked: Int, allowed: Int)] = [:]
        var trackers = PageSnapshot.TrackerCounts(blocked: 0, allowed: 0, companiesBlocked: 0, companiesAllowed: 0)
        forEachTriple { key, info in
            var entry = companies[key.company] ?? PageSnapshot.CompanyTrackers(
                company: company(named: key.company), hosts: [], blocked: 0, allowed: 0)
            entry.hosts.append(PageSnapshot.HostState(
                host: key.host, tracker: info.trackerDomain, state: key.state, category: info.category,
                requests: info.requests, decidedBy: info.decidedBy.map(\.entry), engineRules: info.engineRules.map(\.entry)))
            switch key.state {
            case .blocked:
                entry.blocked += 1
                trackers.blocked += 1
                categories[info.category, default: (0, 0)].blocked += 1
            case .allowed(let reason):
                entry.allowed += 1
                trackers.allowed += 1
                reasons[reason, default: 0] += 1
                categories[info.category, default: (0, 0)].allowed += 1
            }
            companies[key.company] = entry
        }
        var companyList = Array(companies.values)
        for index in companyList.indices {
            companyList[index].hosts.sort { ($0.host, $0.state) < ($1.host, $1.state) }
            if companyList[index].blocked > 0 { trackers.companiesBlocked += 1 }
            if companyList[index].allowed > 0 { trackers.companiesAllowed += 1 }
        }
        companyList.sort { left, right in
            if (left.blocked > 0) != (right.blocked > 0) { return left.blocked > 0 }
            let leftPrevalence = left.company.prevalence ?? -1
            let rightPrevalence = right.company.prevalence ?? -1
            if leftPrevalence != rightPrevalence { return leftPrevalence > rightPrevalence }
            return left.company.name < right.company.name
        }
        let siteOwner = classifier.siteEntityName.map { company(named: $0) }
        return PageSnapshot(
            tab: tab, url: url, committedURL: committedURL, site: classifier.siteDomain,
            isProtected: classifier.isProtected, siteOwner: siteOwner,
            requests: PageSnapshot.RequestCounts(
                observed: counters.requests, thirdParty: counters.thirdPartyRequests, trackers: counters.trackerRequests),
            trackers: trackers,
            allowedReasons: AllowedReason.allCases.map { PageSnapshot.ReasonCount(reason: $0, trackers: reasons[$0] ?? 0) },
            categories: FirefoxCategory.dashboardOrder.map {
                PageSnapshot.CategoryCount(
                    category: $0, blocked: categories[$0]?.blocked ?? 0, allowed: categories[$0]?.allowed ?? 0)
            },
            companies: companyList,
            surrogates: surrogateUses(),
            counters: counters)
    }

    /// The company named `name`: a tds entity, or a registrable domain standing for one.
    func company(named name: String) -> PageSnapshot.Company {
        let entity = classifier.resolver.trackerData.entities[name]
        let prevalence = entity?.prevalence
        return PageSnapshot.Company(
            name: name, displayName: entity?.displayName ?? name, prevalence: prevalence,
            isMajorNetwork: (prevalence ?? 0) >= limits.majorNetworkPrevalence)
    }
}

extension PageSnapshot {
    /// A snapshot of a page with nothing recorded, for a tab without a page.
    public static func empty(tab: TabID?) -> PageSnapshot {
        PageSnapshot(
            tab: tab, url: "", committedURL: "", site: nil, isProtected: true, siteOwner: nil,
            requests: RequestCounts(observed: 0, thirdParty: 0, trackers: 0),
            trackers: TrackerCounts(blocked: 0, allowed: 0, companiesBlocked: 0, companiesAllowed: 0),
            allowedReasons: AllowedReason.allCases.map { ReasonCount(reason: $0, trackers: 0) },
            categories: FirefoxCategory.dashboardOrder.map { CategoryCount(category: $0, blocked: 0, allowed: 0) },
            companies: [], surrogates: [], counters: Counters())
    }
}
