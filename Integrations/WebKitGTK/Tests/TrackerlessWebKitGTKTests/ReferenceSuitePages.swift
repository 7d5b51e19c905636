import Foundation
import Testing

/// A reference suite (../shared/data/privacy-reference-tests) as web pages: one page per site of
/// its cases, which makes each case's request with an element of the case's type, and the
/// browser's inputs (tds, privacy configuration, user allowlist).
struct ReferenceSuitePages: CustomTestStringConvertible, Sendable {
    /// One case: the request a page at `site` makes.
    struct Case: Sendable {
        var name: String
        var site: String
        var request: String
        var type: String
    }

    let name: String
    let cases: [Case]
    /// The tds, relative to privacy-reference-tests.
    let trackerData: String
    /// The privacy configuration's JSON, or nil for none.
    let configuration: String?
    /// The user allowlist, relative to privacy-reference-tests, or nil.
    let allowlist: String?

    var testDescription: String { name }

    static let root = BrowserProcess.sharedData.appendingPathComponent("privacy-reference-tests")

    /// The pages' sites, in the order of their first case.
    var sites: [String] {
        var seen: Set<String> = [], sites: [String] = []
        for test in cases where seen.insert(test.site).inserted { sites.append(test.site) }
        return sites
    }

    /// Writes one directory per host under `directory`, each page at its URL's path.
    func writeSites(to directory: URL) throws {
        for site in sites {
            let url = try #require(URL(string: site), "\(name): \(site)")
            let host = try #require(url.host, "\(name): \(site)")
            let path = url.path.isEmpty || url.path.hasSuffix("/") ? url.path + "index.html" : url.path
            let file = directory.appendingPathComponent(host).appendingPathComponent(String(path.drop(while: { $0 == "/" })))
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            let body = cases.enumerated().filter { $0.element.site == site }.map { Self.element(for: $0.element, index: $0.offset) }
            try Data(("<!doctype html>\n<title>\(name)</title>\n" + body.joined(separator: "\n") + "\n").utf8).write(to: file)
        }
    }

    /// The markup that makes a case's request as a load of its type.
    static func element(for test: Case, index: Int) -> String {
        let url = test.request.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\"", with: "&quot;")
        switch test.type {
        case "script": return "<script src=\"\(url)\"></script>"
        case "stylesheet": return "<link rel=\"stylesheet\" href=\"\(url)\">"
        case "font": return "<style>@font-face { font-family: f\(index); src: url(\"\(url)\"); }</style><span style=\"font-family: f\(index)\">x</span>"
        case "subdocument": return "<iframe src=\"\(url)\"></iframe>"
        case "xmlhttprequest": return "<script>fetch(\"\(test.request)\").catch(function () {});</script>"
        default: return "<img src=\"\(url)\">"
        }
    }

    /// The browser's arguments for the suite's inputs; the configuration is written to `directory`.
    func arguments(writingTo directory: URL) throws -> [String] {
        var arguments = ["--tds", Self.root.appendingPathComponent(trackerData).path]
        if let configuration {
            let file = directory.appendingPathComponent("privacy-config.json")
            try Data(configuration.utf8).write(to: file)
            arguments += ["--privacy-config", file.path]
        }
        if let allowlist { arguments += ["--allowlist", Self.root.appendingPathComponent(allowlist).path] }
        return arguments
    }

    // MARK: - The suites

    static func json(_ path: String) -> Any? {
        (try? Data(contentsOf: root.appendingPathComponent(path))).flatMap { try? JSONSerialization.jsonObject(with: $0) }
    }

    static func text(_ path: String) -> String {
        (try? String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)) ?? "{}"
    }

    /// The suites, or none when the shared data is absent (the suite is then skipped).
    static let all: [ReferenceSuitePages] = {
        var suites: [ReferenceSuitePages] = []
        let folder = "tracker-radar-tests/TR-domain-matching/"
        if let domain = json(folder + "domain_matching_tests.json") as? [String: [String: Any]] {
            let cases = ["domainTests", "surrogateTests"].flatMap { key in
                (domain[key]?["tests"] as? [[String: Any]] ?? []).compactMap { test -> Case? in
                    guard let site = test["siteURL"] as? String, let request = test["requestURL"] as? String else { return nil }
                    return Case(name: test["name"] as? String ?? "", site: site, request: request, type: test["requestType"] as? String ?? "image")
                }
            }
            suites.append(ReferenceSuitePages(
                name: "tracker-radar domain matching", cases: cases, trackerData: folder + "tracker_radar_reference.json",
                configuration: nil, allowlist: nil))
        }
        if let allowlist = json(folder + "tracker_allowlist_matching_tests.json") as? [[String: Any]] {
            let cases = allowlist.compactMap { test -> Case? in
                guard let site = test["site"] as? String, let request = test["request"] as? String else { return nil }
                return Case(
                    name: test["description"] as? String ?? "", site: site, request: request,
                    type: URL(string: request)?.path.hasSuffix(".js") == true ? "script" : "image")
            }
            let configuration = """
                {"features": {"contentBlocking": {"state": "enabled", "exceptions": []},
                  "trackerAllowlist": {"state": "enabled", "exceptions": [], "settings": {"allowlistedTrackers": \(text(folder + "tracker_allowlist_reference.json"))}}}}
                """
            suites.append(ReferenceSuitePages(
                name: "tracker allowlist", cases: cases, trackerData: folder + "tracker_allowlist_tds_reference.json",
                configuration: configuration, allowlist: nil))
        }
        if let blocklist = json("request-blocklist/tests.json") as? [String: [String: Any]] {
            let cases = blocklist.keys.sorted().flatMap { key in
                (blocklist[key]?["tests"] as? [[String: Any]] ?? []).compactMap { test -> Case? in
                    guard let site = test["websiteUrl"] as? String, let request = test["requestUrl"] as? String,
                        let type = test["requestType"] as? String, type != "main_frame"
                    else { return nil }
                    return Case(name: test["name"] as? String ?? "", site: site, request: request, type: type)
                }
            }
            suites.append(ReferenceSuitePages(
                name: "request blocklist", cases: cases, trackerData: "request-blocklist/tds-reference.json",
                configuration: text("request-blocklist/config-reference.json"), allowlist: "request-blocklist/user-allowlist-reference.json"))
        }
        // The privacy configuration's contentBlocking cases (exceptions, unprotectedTemporary):
        // each site loads a tracker the domain-matching tds blocks everywhere.
        if let configuration = json("privacy-configuration/tests.json") as? [String: [String: Any]] {
            let sets = ["localExceptions", "globalExceptions"]
            let cases = sets.flatMap { key in
                (configuration[key]?["tests"] as? [[String: Any]] ?? []).compactMap { test -> Case? in
                    guard test["featureName"] as? String == "contentBlocking", let site = test["siteURL"] as? String else { return nil }
                    return Case(name: test["name"] as? String ?? "", site: site, request: "https://tracker.test/script.js", type: "script")
                }
            }
            suites.append(ReferenceSuitePages(
                name: "privacy configuration", cases: cases, trackerData: folder + "tracker_radar_reference.json",
                configuration: text("privacy-configuration/config2_reference.json"), allowlist: nil))
        }
        return suites
    }()
}
