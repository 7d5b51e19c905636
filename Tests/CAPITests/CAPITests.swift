import ContentRuleList
import Foundation
import PrivacyStatsKit
import RuleBuilder
import RuleEngineKit
import Testing
import TrackerDataKit
import TrackerlessCore
import TrackerlessTestSupport

/// The C API as a C host uses it: `c/capi_test.c` is compiled against
/// `Sources/TrackerlessC/include/trackerless.h` with the toolchain's clang, linked with the
/// `TrackerlessC` dynamic library that `swift build --build-tests` writes next to the tests, and
/// run; its answers must be the Swift engine's, and its own checks must pass (refused input,
/// wrong arguments, the compiled form, four threads at once).
@Suite("The C API")
struct CAPITests {
    static let buildDirectory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
    static let header = SharedData.packageRoot.appendingPathComponent("Sources/TrackerlessC/include")
    static let sources = SharedData.packageRoot.appendingPathComponent("Tests/CAPITests/c")

    /// The resource type index of `tl_resource_type` for a matching-test request type.
    static let typeIndex: [String: (Int, ResourceType)] = [
        "script": (4, .script), "image": (2, .image), "xhr": (10, .fetch), "fetch": (10, .fetch), "xmlhttprequest": (10, .fetch),
        "subdocument": (1, .childDocument), "stylesheet": (3, .styleSheet), "other": (13, .other), "media": (7, .media),
        "font": (5, .font),
    ]

    /// The engine's C host, built once per run.
    static let program = compile("capi_test.c")
    /// The resolver's C host, built once per run.
    static let resolverProgram = compile("resolver_test.c")

    /// Compiles `c/<name>` against the header and links it with the library.
    static func compile(_ name: String) -> Result<URL, ProgramError> {
        compile(source: sources.appendingPathComponent(name))
    }

    /// Compiles the C file `source` against the header and links it with the library.
    static func compile(source: URL) -> Result<URL, ProgramError> {
        let library = buildDirectory.appendingPathComponent("libTrackerlessC.so")
        guard FileManager.default.fileExists(atPath: library.path) else {
            return .failure(ProgramError(description: "\(library.path) is missing: build with `swift build --build-tests`"))
        }
        guard let clang = ChildProcess.executable(named: "clang") else {
            return .failure(ProgramError(description: "clang (part of the Swift toolchain) is not on PATH"))
        }
        let temporary = FileManager.default.temporaryDirectory
        let output = temporary.appendingPathComponent("trackerless-capi-test-\(UUID().uuidString)")
        do {
            let result = try ChildProcess.run(clang, [
                "-std=c11", "-Wall", "-Wextra", "-Werror", "-pthread", "-I", header.path, source.path,
                "-L", buildDirectory.path, "-lTrackerlessC", "-Wl,-rpath," + buildDirectory.path, "-o", output.path,
            ], logs: temporary)
            guard result.status == 0 else { return .failure(ProgramError(description: "clang failed: \(result.output)")) }
        } catch {
            return .failure(ProgramError(description: "clang could not run: \(error)"))
        }
        return .success(output)
    }

    struct ProgramError: Error, CustomStringConvertible {
        let description: String
    }

    /// Runs the C host on `loads` under `lists`, and checks every answer against the Swift engine.
    static func check(lists: [RuleList], loads: [(type: String, url: String, top: String)]) throws {
        let program = try program.get()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("trackerless-capi-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var files: [String] = []
        for (index, list) in lists.enumerated() {
            let file = directory.appendingPathComponent("rules-\(index).json")
            try Data(list.encoded()).write(to: file)
            files.append(file.path)
        }
        let tsv = loads.map { "\(try! #require(typeIndex[$0.type]).0)\t\($0.url)\t\($0.top)\t" }.joined(separator: "\n")
        let loadsFile = directory.appendingPathComponent("loads.tsv")
        try Data(tsv.utf8).write(to: loadsFile)

        let run = try ChildProcess.run(program, [loadsFile.path] + files, logs: directory)
        #expect(run.status == 0, "\(run.output.suffix(2000))")
        let lines = run.output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let answers = lines.prefix(loads.count)
        try #require(answers.count == loads.count, "\(run.output.prefix(500))")
        #expect(lines.filter { $0.hasPrefix("ok: ") }.count == 4, "\(lines.suffix(6))")
        #expect(lines.contains { $0.hasPrefix("ok: refused: list 1: rule 0:") }, "\(lines.suffix(6))")

        let engine = try RuleEngine(ruleLists: lists)
        var cache = RuleEngine.PageCache()
        var namingCache = RuleEngine.PageCache()
        var mismatches: [String] = []
        for (load, answer) in zip(loads, answers) {
            let request = Request(url: load.url, topURL: load.top, resourceType: try #require(typeIndex[load.type]).1)
            let decision = engine.decision(for: request, cache: &cache)
            var flags: UInt32 = 0
            if decision.isChecked { flags |= 1 }
            if decision.isBlocked { flags |= 2 }
            if decision.blocksCookies { flags |= 4 }
            if decision.upgradesToHTTPS { flags |= 8 }
            if decision.hidesElements { flags |= 16 }
            // The C host's JSON names each action's list and rule, as the Swift engine does.
            let named = engine.actions(for: request, cache: &namingCache)
            let expected = "\(flags)\t" + named.jsonValue().jsonString()
            if answer != expected, mismatches.count < 10 { mismatches.append("\(load.url): C \(answer), Swift \(expected)") }
        }
        #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n"))")
    }

    @Test("the sample blocklist's rules: the C host decides as the Swift engine, and its own checks pass")
    func sample() throws {
        let build = RuleListBuilder(trackerData: try TrackerData(parsing: Array(TrackerData.sampleDocument.utf8), file: "sample")).build()
        let top = "https://news.example/"
        let loads: [(String, String, String)] = [
            ("script", "https://tracker.example/analytics.js", top), ("image", "https://tracker.example/pixel.gif", top),
            ("script", "https://cdn.news.example/app.js", top), ("fetch", "https://api.tracker.example/collect", top),
            ("subdocument", "https://ads.example/frame.html", top), ("image", "data:image/gif;base64,R0lGOD", top),
            ("script", "not a url", top),
        ]
        try Self.check(lists: build.ruleLists, loads: loads)
    }

    @Test("apple-tds and 8,276 real requests: every answer of the C host is the Swift engine's",
          .enabled(if: SharedData.shouldRun("tds/apple-tds.json"), SharedData.skipMessage))
    func realRequests() throws {
        let trackerData = try TrackerData(contentsOfFile: SharedData.path("tds/apple-tds.json"))
        let build = RuleListBuilder(trackerData: trackerData).build()
        let requests = MatchingTestRequest.all
        try #require(requests.count == 8_276)
        let loads = requests.compactMap { request -> (String, String, String)? in
            guard Self.typeIndex[request.rawType] != nil, !request.url.contains("\t"), !request.url.contains("\n") else { return nil }
            let top = request.sourceURL.hasPrefix("http") && request.sourceURL.count > 8 ? request.sourceURL : "https://news.example/"
            return (request.rawType, request.url, top)
        }
        #expect(loads.count > 8_000)
        try Self.check(lists: build.ruleLists, loads: loads)
    }
}

extension CAPITests {
    @Test("the resolver through the C API passes the 134 TR-domain-matching cases (action, and the surrogate of a redirect) and names the deciding entry of each tracker request as the Swift resolver does",
          .enabled(if: SharedData.shouldRun(SharedData.domainMatching), SharedData.skipMessage))
    func domainMatching() throws {
        let program = try Self.resolverProgram.get()
        let cases = DomainMatchingCase.all
        try #require(cases.count == 134)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("trackerless-capi-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("cases.tsv")
        try Data(cases.map { "\($0.requestURL)\t\($0.topURL)\t\($0.requestType)" }.joined(separator: "\n").utf8).write(to: file)
        let folder = SharedData.domainMatching
        let run = try ChildProcess.run(program, [
            SharedData.path("\(folder)/tracker_radar_reference.json"), SharedData.path("\(folder)/surrogates.txt"), file.path,
        ], logs: directory)
        #expect(run.status == 0, "\(run.output.suffix(2000))")
        let lines = run.output.split(separator: "\n").map(String.init)
        try #require(lines.count == cases.count + 1, "\(run.output.suffix(1000))")
        #expect(lines[cases.count].hasPrefix("ok: refused: tds.json: trackers: expected an object, found an array"), "\(lines[cases.count])")
        let fixture = try DomainMatchingFixture.loaded.get()
        let surrogates = fixture.surrogates
        for (test, line) in zip(cases, lines) {
            let answer = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(test): \(line)")
            #expect(answer["action"] as? String == test.expectAction, "\(test): \(line)")
            let decision = try #require(fixture.resolver.decision(
                forRequestURL: test.requestURL, topURL: test.topURL, type: RequestType(rawValue: test.requestType)))
            let decidedBy = answer["decidedBy"] as? [String: Any]
            #expect((decidedBy != nil) == decision.isTracker, "\(test): \(line)")
            if let entry = decision.decidingEntry {
                #expect(decidedBy?["kind"] as? String == entry.kind, "\(test): \(line)")
                #expect(line.contains(entry.jsonValue().jsonString()), "\(test): \(line)")
            }
            if let redirect = test.expectRedirect {
                let name = try #require(answer["surrogate"] as? String, "\(test): \(line)")
                #expect(surrogates[name]?.dataURL == redirect, "\(test): surrogate \(name)")
            }
        }
    }
}

extension CAPITests {
    /// Runs `program` with the path of the bundled sample tds.json, written to a temporary
    /// directory that is removed after.
    static func runWithSampleTDS(_ program: URL) throws -> (status: Int32, output: String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("trackerless-capi-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let tds = directory.appendingPathComponent("tds.json")
        try Data(TrackerData.sampleDocument.utf8).write(to: tds)
        return try ChildProcess.run(program, [tds.path], logs: directory)
    }

    /// Runs the C host built from `program` with the sample tds.json, expects it to exit 0 having
    /// printed `okCount` lines starting "ok: ", and returns its output's lines.
    static func runSampleProgram(_ program: Result<URL, ProgramError>, expectingOK okCount: Int) throws -> [String] {
        let run = try runWithSampleTDS(try program.get())
        #expect(run.status == 0, "\(run.output.suffix(2000))")
        let lines = run.output.split(separator: "\n").map(String.init)
        #expect(lines.filter { $0.hasPrefix("ok: ") }.count == okCount, "\(lines.prefix(okCount + 1))")
        return lines
    }

    /// The scripts and statistics' C host, built once per run.
    static let statsProgram = compile("stats_test.c")

    @Test("scripts and statistics through the C API: rendered for the android bridge, a message counted, a forged one and a 20-digit one rejected, a native load observed")
    func scriptsAndStatistics() throws {
        let lines = try Self.runSampleProgram(Self.statsProgram, expectingOK: 5)
        #expect(lines.contains { $0.hasPrefix("ok: unknown bridge refused: unknown bridge \"carrier-pigeon\"") })
        #expect(lines.contains("ok: forged message rejected: \(MessageRejection.wrongSecret)"), "\(lines.prefix(6))")

        let last = try #require(lines.last)
        let snapshot = try #require(try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any])
        #expect(snapshot["tab"] as? String == "7")
        #expect(snapshot["url"] as? String == "https://news.example/")
        let trackers = try #require(snapshot["trackers"] as? [String: Any])
        // social.example's script (reported by the message) and ads.example's pixel (observed natively).
        #expect(trackers["blocked"] as? Int == 2, "\(trackers)")
        let companies = (snapshot["companies"] as? [[String: Any]] ?? []).compactMap { ($0["company"] as? [String: Any])?["name"] as? String }
        #expect(Set(companies).count == 2, "\(companies)")
        let counters = try #require(snapshot["counters"] as? [String: Any])
        #expect(counters["messages"] as? Int == 1, "\(counters)")
    }
}
