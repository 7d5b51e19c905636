import TrackerDataKit
import TrackerlessCore

/// Renders a ``PageSnapshot`` as a self-contained HTML privacy dashboard.
///
/// The page needs nothing else: CSS is inline, there is no JavaScript and no external request
/// (no fonts, images or links to load). It is plain semantic HTML: headings, tables with
/// captions and `scope`d headers, the category chart as CSS bars each with its number in text
/// and an `aria-label`. Every string from the snapshot is escaped (tracker and company names
/// come from data and page URLs from the page).
///
/// ```swift
/// let html = DashboardHTML.render(stats.snapshot(tab: "1"))
/// ```
public enum DashboardHTML {
    /// The dashboard page of `snapshot`.
    public static func render(_ snapshot: PageSnapshot) -> String {
        var html = ""
        html.reserveCapacity(8192 + snapshot.companies.count * 400)
        let site = snapshot.site ?? snapshot.url
        html += """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>Privacy dashboard: \(escape(site))</title>
            <style>\(style)</style>
            </head>
            <body>
            <main>
            <header>
            <h1>Privacy dashboard</h1>
            <p class="site">\(escape(site))</p>
            <p class="url">\(escape(snapshot.url))</p>
            \(protectionLine(snapshot))
            </header>

            """
        html += summary(snapshot)
        html += categoryChart(snapshot)
        html += companyTable(snapshot)
        html += reasonTable(snapshot)
        html += surrogateList(snapshot)
        html += footer(snapshot)
        html += "</main>\n</body>\n</html>\n"
        return html
    }

    // MARK: - Sections

    private static func protectionLine(_ snapshot: PageSnapshot) -> String {
        var line = snapshot.isProtected
            ? "<p class=\"status on\">Protections are <strong>on</strong> for this site.</p>"
            : "<p class=\"status off\">Protections are <strong>off</strong> for this site.</p>"
        if let owner = snapshot.siteOwner {
            line += "\n<p>This site is owned by \(escape(owner.displayName))"
            if owner.isMajorNetwork, let prevalence = owner.prevalence {
                line += ", a major tracker network (found on \(percent(prevalence)) of sites)"
            }
            line += ".</p>"
        }
        return line
    }

    private static func summary(_ snapshot: PageSnapshot) -> String {
        let trackers = snapshot.trackers
        return """
            <section aria-labelledby="summary">
            <h2 id="summary">Summary</h2>
            <ul class="totals">
            <li><strong>\(trackers.blocked)</strong> \(plural(trackers.blocked, "tracker", "trackers")) blocked from \
            <strong>\(trackers.companiesBlocked)</strong> \(plural(trackers.companiesBlocked, "company", "companies"))</li>
            <li><strong>\(trackers.allowed)</strong> \(plural(trackers.allowed, "tracker", "trackers")) allowed from \
            <strong>\(trackers.companiesAllowed)</strong> \(plural(trackers.companiesAllowed, "company", "companies"))</li>
            <li><strong>\(snapshot.requests.observed)</strong> \(plural(snapshot.requests.observed, "request", "requests")) observed, \
            \(snapshot.requests.thirdParty) to other sites</li>
            <li><strong>\(snapshot.surrogates.count)</strong> \(plural(snapshot.surrogates.count, "surrogate", "surrogates")) \
            ran in place of tracker scripts</li>
            </ul>
            </section>

            """
    }

    private static func categoryChart(_ snapshot: PageSnapshot) -> String {
        let largest = max(1, snapshot.categories.map { $0.blocked + $0.allowed }.max() ?? 1)
        var rows = ""
        for entry in snapshot.categories {
            let name = categoryNames[entry.category] ?? entry.category.rawValue
            let blockedWidth = Double(entry.blocked) * 100 / Double(largest)
            let allowedWidth = Double(entry.allowed) * 100 / Double(largest)
            rows += """
                <tr>
                <th scope="row">\(escape(name))</th>
                <td><div class="bar" role="img" aria-label="\(escape(name)): \(entry.blocked) blocked, \(entry.allowed) allowed">\
                <span class="blocked" style="width: \(width(blockedWidth))"></span>\
                <span class="allowed" style="width: \(width(allowedWidth))"></span></div></td>
                <td class="number">\(entry.blocked)</td>
                <td class="number">\(entry.allowed)</td>
                </tr>

                """
        }
        return """
            <section aria-labelledby="categories">
            <h2 id="categories">Trackers by category</h2>
            <table class="chart">
            <caption>Trackers on this page by category; bars show blocked (dark) and allowed (light) trackers.</caption>
            <thead><tr><th scope="col">Category</th><th scope="col">Chart</th>\
            <th scope="col">Blocked</th><th scope="col">Allowed</th></tr></thead>
            <tbody>
            \(rows)</tbody>
            </table>
            </section>

            """
    }

    private static func companyTable(_ snapshot: PageSnapshot) -> String {
        guard !snapshot.companies.isEmpty else {
            return """
                <section aria-labelledby="companies">
                <h2 id="companies">Companies</h2>
                <p>No trackers were found on this page.</p>
                </section>

                """
        }
        var rows = ""
        for entry in snapshot.companies {
            let company = entry.company
            var name = escape(company.displayName)
            if company.isMajorNetwork { name += " <span class=\"badge\">major tracker network</span>" }
            let prevalence = company.prevalence.map(percent) ?? "unknown"
            let hosts = entry.hosts.map { host in
                "<li>\(escape(host.host)): \(stateText(host.state))\(decidedBy(host.decidedBy, engineRules: host.engineRules))</li>"
            }.joined()
            rows += """
                <tr>
                <th scope="row">\(name)</th>
                <td class="number">\(prevalence)</td>
                <td class="number">\(entry.blocked)</td>
                <td class="number">\(entry.allowed)</td>
                <td><ul class="hosts">\(hosts)</ul></td>
                </tr>

                """
        }
        return """
            <section aria-labelledby="companies">
            <h2 id="companies">Companies</h2>
            <table>
            <caption>Companies whose trackers this page requested, those blocked first, then by prevalence.</caption>
            <thead><tr><th scope="col">Company</th><th scope="col">Found on sites</th>\
            <th scope="col">Blocked</th><th scope="col">Allowed</th><th scope="col">Hosts</th></tr></thead>
            <tbody>
            \(rows)</tbody>
            </table>
            </section>

            """
    }

    private static func reasonTable(_ snapshot: PageSnapshot) -> String {
        var rows = ""
        for entry in snapshot.allowedReasons {
            rows += """
                <tr><th scope="row">\(escape(entry.reason.rawValue.capitalizedFirst))</th>\
                <td>\(escape(reasonExplanations[entry.reason] ?? ""))</td><td class="number">\(entry.trackers)</td></tr>

                """
        }
        return """
            <section aria-labelledby="reasons">
            <h2 id="reasons">Why trackers were allowed</h2>
            <table>
            <caption>Allowed trackers by reason.</caption>
            <thead><tr><th scope="col">Reason</th><th scope="col">Meaning</th><th scope="col">Trackers</th></tr></thead>
            <tbody>
            \(rows)</tbody>
            </table>
            </section>

            """
    }

    private static func surrogateList(_ snapshot: PageSnapshot) -> String {
        guard !snapshot.surrogates.isEmpty else { return "" }
        let items = snapshot.surrogates.map { "<li><code>\(escape($0.surrogate))</code> for \(escape($0.host))</li>" }
        return """
            <section aria-labelledby="surrogates">
            <h2 id="surrogates">Surrogate scripts</h2>
            <p>These harmless stand-ins ran in place of blocked tracker scripts, so the page keeps working.</p>
            <ul>\(items.joined())</ul>
            </section>

            """
    }

    private static func footer(_ snapshot: PageSnapshot) -> String {
        let counters = snapshot.counters
        return """
            <footer>
            <p>Snapshot schema \(PageSnapshot.schemaVersion). \(counters.messages) \
            \(plural(counters.messages, "message", "messages")) received; \(counters.eventsDroppedByScripts + counters.eventsDroppedByHost) \
            events dropped under load. Every request was classified by this app, not by the page.</p>
            </footer>

            """
    }

    // MARK: - Text

    private static let categoryNames: [FirefoxCategory: String] = [
        .cryptomining: "Cryptominers", .fingerprinting: "Fingerprinters", .social: "Social media trackers",
        .advertising: "Advertising", .analytics: "Analytics", .content: "Tracking content", .other: "Other trackers",
    ]

    private static let reasonExplanations: [AllowedReason: String] = [
        .firstParty: "The tracker is part of the site you are visiting.",
        .sameEntity: "The company that runs the tracker also owns this site.",
        .userAllowlist: "You turned protections off for this site.",
        .unprotectedSite: "Protections are off for this site to keep it working.",
        .ruleException: "The blocklist allows these requests, usually to keep the site working.",
        .trackerAllowlist: "Allowed on this site to keep it working.",
        .clickToLoad: "You clicked to load this embedded content.",
        .protectionsOff: "Blocking was not in effect when the page loaded it.",
    ]

    private static func stateText(_ state: TrackerState) -> String {
        switch state {
        case .blocked: "<span class=\"blocked-text\">blocked</span>"
        case .allowed(let reason): "allowed (\(escape(reason.rawValue)))"
        }
    }

    /// What decided a host's requests, the resolver's entries then the engine's rules, folded
    /// in a `<details>` a person opens; "" for none.
    private static func decidedBy(_ entries: [BlockingDecision.DecidingEntry], engineRules: [EngineRule]) -> String {
        guard !entries.isEmpty || !engineRules.isEmpty else { return "" }
        let items = entries.map { "<li>\(decidingEntryText($0))</li>" }.joined()
            + engineRules.map { "<li>\(engineRuleText($0))</li>" }.joined()
        return "<details><summary>Decided by</summary><ul class=\"decided-by\">\(items)</ul></details>"
    }

    /// One engine rule in words, with the input it was built from as code when known.
    static func engineRuleText(_ rule: EngineRule) -> String {
        var text = "rule \(rule.rule) of content rule list \(rule.list)"
        if case .object(let source)? = rule.source, case .string(let path)? = source["path"] {
            text += ", built from <code>\(escape(path))</code>"
            if case .string(let ruleText)? = source["rule"] { text += ": <code>\(escape(ruleText))</code>" }
        }
        return text
    }

    /// One deciding entry in words, the rule text as code.
    static func decidingEntryText(_ entry: BlockingDecision.DecidingEntry) -> String {
        func code(_ text: String) -> String { "<code>\(escape(text))</code>" }
        switch entry {
        case .trackerRule(let reference):
            return "rule \(reference.index) of \(escape(reference.trackerDomain)) in the blocklist: \(code(reference.rule.rule))"
        case .trackerDefault(let tracker, let defaultAction):
            return "the default of \(escape(tracker)) in the blocklist: \(code(defaultAction?.rawValue ?? "none"))"
        case .trackerAllowlist(let tracker, let index, let rule):
            return "rule \(index) of \(escape(tracker)) in the tracker allowlist: \(code(rule.rule))"
        case .requestBlocklist(let domain, let index, let rule):
            return "rule \(index) of \(escape(domain)) in the request blocklist: \(code(rule.rule))"
        case .unprotectedSite(.featureNotEnabled(let feature, let state)):
            return "\(code(feature)) is \(escape(state?.rawValue ?? "missing")) in the privacy configuration"
        case .unprotectedSite(.unprotectedTemporary(let index, let domain)):
            return "entry \(index) of the temporarily unprotected sites: \(code(domain))"
        case .unprotectedSite(.featureException(let feature, let index, let domain)):
            return "exception \(index) of \(code(feature)): \(code(domain))"
        case .userAllowlist(let domain):
            return "protection turned off by the user on \(escape(domain))"
        case .sameEntity(let entity):
            return "owned by the site's own company, \(escape(entity))"
        case .sameSite(let registrableDomain):
            return "on the site's own domain, \(escape(registrableDomain))"
        case .mainFrame:
            return "the page itself"
        }
    }

    private static func plural(_ count: Int, _ singular: String, _ plural: String) -> String {
        count == 1 ? singular : plural
    }

    private static func percent(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? "\(Int(rounded))%" : "\(rounded)%"
    }

    private static func width(_ percent: Double) -> String {
        let rounded = (percent * 10).rounded() / 10
        return "\(rounded)%"
    }

    /// Escapes text for HTML element content and double- or single-quoted attribute values.
    static func escape(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.unicodeScalars.append(character)
            }
        }
        return result
    }

    private static let style = """
        :root{color-scheme:light;font-family:-apple-system,system-ui,"Segoe UI",Roboto,sans-serif;color:#1c1c1e;background:#f4f4f6}
        main{max-width:56rem;margin:0 auto;padding:1.5rem}
        header,section,footer{background:#fff;border-radius:.75rem;padding:1rem 1.25rem;margin-bottom:1rem;box-shadow:0 1px 2px rgba(0,0,0,.08)}
        h1{font-size:1.6rem;margin:0 0 .25rem}h2{font-size:1.15rem;margin:0 0 .75rem}
        .site{font-size:1.2rem;font-weight:600;margin:.25rem 0}.url{color:#555;word-break:break-all;margin:.25rem 0}
        .status.on strong{color:#1a7f37}.status.off strong{color:#b42318}
        .totals{list-style:none;padding:0;margin:0;display:grid;grid-template-columns:repeat(auto-fit,minmax(12rem,1fr));gap:.5rem}
        .totals li{background:#f4f4f6;border-radius:.5rem;padding:.6rem .75rem}.totals li>strong:first-child{font-size:1.4rem;display:block}
        table{width:100%;border-collapse:collapse}caption{text-align:left;color:#555;padding-bottom:.5rem}
        th,td{text-align:left;padding:.4rem .5rem;border-bottom:1px solid #e5e5ea;vertical-align:top}
        thead th{font-size:.85rem;color:#555}.number{text-align:right;white-space:nowrap}
        .bar{display:flex;height:1rem;min-width:8rem;background:#f4f4f6;border-radius:.25rem;overflow:hidden}
        .bar .blocked{background:#3c5bd6}.bar .allowed{background:#a9b8f0}
        .badge{display:inline-block;font-size:.75rem;font-weight:600;color:#7a2e0e;background:#fde8d7;border-radius:.25rem;padding:0 .3rem}
        .hosts{list-style:none;margin:0;padding:0;font-size:.9rem}.decided-by{margin:.2rem 0 .4rem 1rem;padding:0}summary{cursor:pointer}.blocked-text{color:#1a7f37;font-weight:600}
        footer{font-size:.85rem;color:#555}
        """
}

extension String {
    /// The string with its first character uppercased.
    fileprivate var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
