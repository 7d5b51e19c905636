import Foundation
import Testing
import TrackerDataKit

/// What a test page requests, from its own list (`<script type="application/json"
/// id="requests">` in Tests/Sites: every request its markup and inline script make, and where the
/// site proxy redirects them), and what its
/// dashboard must then show: each request counted once, blocked when the resolver blocks it
/// (and the server never saw it), allowed when the server saw it.
struct PageRequests {
    /// One request of the list.
    struct Request: Decodable {
        var url: String
        var type: String
    }

    /// The dashboard's tracker entries, as the snapshot lists them.
    struct Dashboard: Equatable, CustomStringConvertible {
        /// "company host state" → distinct requests.
        var entries: [String: Int] = [:]
        var blocked = 0
        var allowed = 0
        var companiesBlocked = 0
        var companiesAllowed = 0
        /// Requests the resolver calls trackers (or blocks).
        var trackerRequests = 0

        var description: String {
            "blocked \(blocked) from \(companiesBlocked), allowed \(allowed) from \(companiesAllowed), "
                + "\(trackerRequests) tracker requests: \(entries.sorted { $0.key < $1.key })"
        }
    }

    let page: String
    var requests: [Request]
    /// The list's URLs that the page's HTML does not hold: a list out of step with its page.
    let unlisted: [String]

    /// Reads the list of `page` from its file in Tests/Sites.
    init(page: String) throws {
        self.page = page
        let url = try #require(URL(string: page))
        let host = try #require(url.host)
        let path = url.path == "/" || url.path.isEmpty ? "/index.html" : url.path
        let file = BrowserProcess.packageRoot.appendingPathComponent("Tests/Sites/\(host)\(path)")
        let html = try String(contentsOf: file, encoding: .utf8)
        let start = try #require(html.range(of: #"<script type="application/json" id="requests">"#))
        let end = try #require(html.range(of: "</script>", range: start.upperBound..<html.endIndex))
        requests = try JSONDecoder().decode([Request].self, from: Data(html[start.upperBound..<end.lowerBound].utf8))
        // Each URL must appear in the page's code outside the list (HTML attributes escape `&`).
        let code = html[end.upperBound...].replacingOccurrences(of: "&amp;", with: "&")
        unlisted = requests.map(\.url).filter { !code.contains($0) }
        requests += requests.flatMap { Self.redirectTargets(of: $0) }
    }

    /// Where the site proxy redirects `request` (its `NAME.redirect` files, followed while they
    /// lead to another), each with the request's type: requests the page made as well.
    static func redirectTargets(of request: Request) -> [Request] {
        var targets: [Request] = []
        var url = request.url
        while targets.count < 10, let parsed = URL(string: url), let host = parsed.host {
            let file = BrowserProcess.packageRoot.appendingPathComponent("Tests/Sites/\(host)\(parsed.path).redirect")
            guard let text = try? String(contentsOf: file, encoding: .utf8),
                let target = text.split(separator: "\n").first.map(String.init)
            else { break }
            targets.append(Request(url: target, type: request.type))
            url = target
        }
        return targets
    }

    /// The dashboard the page must show, given what the server saw (`served`, the page itself
    /// included or not): every listed request and every served one, once each; `typeOf` gives
    /// the type of a served request the list does not hold. Also the listed requests the
    /// resolver blocks that reached the server, and the allowed ones that did not.
    func expected(resolver: TrackerResolver, served: [String], typeOf: (String) -> RequestType)
        -> (dashboard: Dashboard, blockedButServed: [String], allowedButNotServed: [String])
    {
        let servedSet = Set(served).subtracting([page])
        var all: [(url: String, type: RequestType, listed: Bool)] = requests.map { ($0.url, RequestType(rawValue: $0.type), true) }
        let listed = Set(requests.map(\.url))
        for url in servedSet.sorted() where !listed.contains(url) { all.append((url, typeOf(url), false)) }
        var dashboard = Dashboard()
        var blockedButServed: [String] = []
        var allowedButNotServed: [String] = []
        var companies: (blocked: Set<String>, allowed: Set<String>) = ([], [])
        for request in all {
            guard let decision = resolver.decision(forRequestURL: request.url, topURL: page, type: request.type) else { continue }
            let wasServed = servedSet.contains(request.url)
            if decision.isBlocked, wasServed { blockedButServed.append(request.url) }
            if !decision.isBlocked, !wasServed { allowedButNotServed.append(request.url) }
            guard decision.isBlocked || decision.tracker != nil else { continue }
            let host = URL(string: request.url)?.host ?? ""
            let company = decision.tracker?.owner?.ownedBy ?? decision.tracker?.owner?.name ?? host
            let state = decision.isBlocked && !wasServed ? "blocked" : "allowed"
            dashboard.trackerRequests += 1
            dashboard.entries["\(company) \(host) \(state)", default: 0] += 1
            if state == "blocked" { companies.blocked.insert(company) } else { companies.allowed.insert(company) }
        }
        dashboard.blocked = dashboard.entries.keys.filter { $0.hasSuffix(" blocked") }.count
        dashboard.allowed = dashboard.entries.count - dashboard.blocked
        dashboard.companiesBlocked = companies.blocked.count
        dashboard.companiesAllowed = companies.allowed.count
        return (dashboard, blockedButServed, allowedButNotServed)
    }

    /// ``expected(resolver:served:typeOf:)`` with each request's type from the list, `other` for
    /// a served URL the list does not hold.
    func expected(resolver: TrackerResolver, served: [String])
        -> (dashboard: Dashboard, blockedButServed: [String], allowedButNotServed: [String])
    {
        let types = Dictionary(requests.map { ($0.url, RequestType(rawValue: $0.type)) }, uniquingKeysWith: { first, _ in first })
        return expected(resolver: resolver, served: served, typeOf: { types[$0] ?? .other })
    }

    /// The same figures read from a snapshot (schema `trackerless-dashboard`); an allowed entry
    /// keeps "allowed" only, whatever its reason.
    static func dashboard(of snapshot: [String: Any]) -> Dashboard {
        var dashboard = Dashboard()
        let trackers = snapshot["trackers"] as? [String: Any] ?? [:]
        dashboard.blocked = trackers["blocked"] as? Int ?? -1
        dashboard.allowed = trackers["allowed"] as? Int ?? -1
        dashboard.companiesBlocked = trackers["companiesBlocked"] as? Int ?? -1
        dashboard.companiesAllowed = trackers["companiesAllowed"] as? Int ?? -1
        dashboard.trackerRequests = (snapshot["requests"] as? [String: Any])?["trackers"] as? Int ?? -1
        for company in snapshot["companies"] as? [[String: Any]] ?? [] {
            let name = (company["company"] as? [String: Any])?["name"] as? String ?? "?"
            for host in company["hosts"] as? [[String: Any]] ?? [] {
                let state = host["state"] as? String ?? "?"
                dashboard.entries["\(name) \(host["host"] as? String ?? "?") \(state)", default: 0] += host["requests"] as? Int ?? 0
            }
        }
        return dashboard
    }
}
