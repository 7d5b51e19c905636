import ContentRuleList
import Testing
import TrackerlessTestSupport

@testable import RuleEngineKit

/// Bad input gets a defined answer, never a crash: invalid URLs, 64 KB and 1 MB URLs, non-ASCII
/// and odd schemes as the request, top and frame URL, through the engine and the engine loaded
/// from its compiled bytes, which must both answer as the reference evaluator does; and damaged
/// compiled files, which must be refused or answer, never trap.
@Suite("Hostile input through the engine")
struct HostileInputTests {
    /// What the answer must be, beyond agreeing with the reference evaluator.
    enum Expectation: Sendable {
        /// WebKit does not check the load (invalid or `data:` URL).
        case unchecked
        /// Checked and blocked.
        case blocked
        /// Checked and not blocked.
        case notBlocked
        /// Checked; the answer is whatever the reference says.
        case checked
        /// Only agreement with the reference.
        case any
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var request: Request
        var expectation: Expectation

        var testDescription: String { name }

        init(_ name: String, url: String, top: String = "https://site.example/", frame: String? = nil,
             type: ResourceType = .image, _ expectation: Expectation)
        {
            self.name = name
            request = Request(url: url, topURL: top, frameURL: frame, resourceType: type)
            self.expectation = expectation
        }
    }

    static let list = #"""
        [
          {"trigger":{"url-filter":"^[^:]+://+([^:/]+\\.)?tracker\\.example[:/]"},"action":{"type":"block"}},
          {"trigger":{"url-filter":"^[^:]+://+([^:/]+\\.)?xn--bcher-kva\\.example[:/]"},"action":{"type":"block"}},
          {"trigger":{"url-filter":"ad$"},"action":{"type":"block-cookies"}},
          {"trigger":{"url-filter":".*","if-domain":["*site.example"]},"action":{"type":"notify","notification":"on site"}},
          {"trigger":{"url-filter":"^http:","unless-top-url":["^https://"]},"action":{"type":"make-https"}},
          {"trigger":{"url-filter":"track","if-frame-url":["frame"]},"action":{"type":"block"}},
          {"trigger":{"url-filter":".*"},"action":{"type":"css-display-none","selector":".ad"}},
          {"trigger":{"url-filter":"a[^/]*b$","resource-type":["script"]},"action":{"type":"block"}},
          {"trigger":{"url-filter":"tracker\\.example/allowed","if-top-url":["tracker"]},"action":{"type":"ignore-previous-rules"}}
        ]
        """#

    static let kilobytes64 = String(repeating: "a", count: 65_536)
    static let megabyte = String(repeating: "ad/", count: 350_000)

    static let cases: [Case] = [
        // Not URLs.
        Case("empty URL", url: "", .unchecked),
        Case("scheme only", url: "http://", .unchecked),
        Case("no scheme", url: "tracker.example/ad", .unchecked),
        Case("relative path", url: "/tracker.example/ad", .unchecked),
        Case("space in the host", url: "http://tra cker.example/", .unchecked),
        Case("port out of range", url: "https://tracker.example:99999/", .unchecked),
        Case("port not a number", url: "https://tracker.example:port/", .unchecked),
        Case("unterminated IPv6 host", url: "http://[::1", .unchecked),
        Case("percent-encoded host", url: "http://%zz/ad", .any),
        Case("NUL in the path", url: "https://tracker.example/\u{0}", .any),
        Case("tab and newline", url: "https://track\ter.example/\n", .any),
        Case("only spaces", url: "   ", .unchecked),
        // data: is never checked.
        Case("data: URL", url: "data:text/html,<script src=https://tracker.example/ad>", .unchecked),
        Case("DATA: in uppercase", url: "DATA:text/plain,ad", .unchecked),
        Case("data: main-frame navigation", url: "data:text/html,ad", type: .topDocument, .unchecked),
        // Very long.
        Case("64 KB tracker URL", url: "https://tracker.example/" + kilobytes64, .blocked),
        Case("64 KB URL on another host", url: "https://other.example/" + kilobytes64, .notBlocked),
        Case("64 KB query ending in ad", url: "https://other.example/?q=" + kilobytes64 + "ad", .checked),
        Case("64 KB script URL a…b", url: "https://other.example/a" + kilobytes64 + "b", type: .script, .blocked),
        Case("1 MB URL", url: "https://other.example/" + megabyte, .checked),
        Case("64 KB host", url: "https://" + String(repeating: "a.", count: 32_000) + "tracker.example/", .any),
        Case("64 KB top URL", url: "https://tracker.example/x", top: "https://site.example/" + kilobytes64, .blocked),
        Case(
            "64 KB frame URL", url: "https://other.example/track",
            frame: "https://frame.example/" + kilobytes64 + "frame", .blocked),
        // Non-ASCII.
        Case("non-ASCII host", url: "https://bücher.example/x", .blocked),
        Case("non-ASCII subdomain", url: "https://ñ.tracker.example/x", .blocked),
        Case("non-ASCII path", url: "https://tracker.example/ü", .blocked),
        Case("emoji path ending in ad", url: "https://other.example/\u{1F600}ad", .checked),
        Case("non-ASCII top URL", url: "https://other.example/x", top: "https://sïte.example/", .checked),
        Case("non-ASCII frame URL", url: "https://other.example/track", frame: "https://frame.example/ü", .blocked),
        Case("invalid IDN host", url: "https://xn--a.example/", .any),
        // Odd schemes.
        Case("blob:", url: "blob:https://tracker.example/5b1d", .checked),
        Case("about:blank", url: "about:blank", .checked),
        Case("file:", url: "file:///etc/tracker.example/ad", .checked),
        Case("javascript:", url: "javascript:void(0)", .checked),
        Case("ws:", url: "ws://tracker.example/", type: .websocket, .blocked),
        Case("wss: with userinfo", url: "wss://u:p@tracker.example/", type: .websocket, .any),
        Case("custom scheme", url: "x-app://tracker.example/ad", .any),
        Case("uppercase scheme and host", url: "HTTPS://TRACKER.EXAMPLE/X", .blocked),
        // Odd pages.
        Case("empty top URL", url: "https://tracker.example/x", top: "", .blocked),
        Case("invalid top URL", url: "https://other.example/x", top: "not a url", .checked),
        Case("about:blank top URL", url: "https://other.example/x", top: "about:blank", .checked),
        Case("data: top URL", url: "https://other.example/ad", top: "data:text/html,x", .checked),
        Case("invalid frame URL", url: "https://other.example/track", frame: "frame but not a url", .any),
        Case("http: page on http:", url: "http://other.example/x", top: "http://site.example/", .checked),
    ]

    static let engines = Result { () throws -> (RuleEngine, RuleEngine, ReferenceEvaluator) in
        let ruleList = try RuleList(parsing: list)
        let engine = try RuleEngine(ruleList: ruleList)
        return (engine, try RuleEngine(compiled: engine.compiled()), try ReferenceEvaluator(ruleList: ruleList))
    }

    @Test("a defined answer, the reference's", arguments: cases)
    func hostileLoad(_ test: Case) throws {
        let (engine, loaded, reference) = try Self.engines.get()
        let expected = reference.actions(for: test.request)
        for (name, engine) in [("engine", engine), ("compiled engine", loaded)] {
            let actions = engine.actions(for: test.request)
            #expect(actions == expected, "\(name): \(describe(actions)); reference: \(describe(expected))")
            var cache = RuleEngine.PageCache()
            let decision = engine.decision(for: test.request, cache: &cache)
            #expect(Engines.problem(decision, expected) == nil, "\(name): \(Engines.problem(decision, expected) ?? "")")
            // The same page again, from the cache.
            let again = engine.decision(for: test.request, cache: &cache)
            #expect(again == decision, "\(name): the cached page answers differently")
            switch test.expectation {
            case .unchecked: #expect(!decision.isChecked && !decision.isBlocked && decision.appliedActions.actions.isEmpty)
            case .blocked: #expect(decision.isChecked && decision.isBlocked, "\(describe(decision.appliedActions))")
            case .notBlocked: #expect(decision.isChecked && !decision.isBlocked, "\(describe(decision.appliedActions))")
            case .checked: #expect(decision.isChecked)
            case .any: break
            }
        }
    }

    @Test("every resource type and method on hostile URLs", arguments: ResourceType.allCases)
    func everyType(_ type: ResourceType) throws {
        let (engine, _, reference) = try Self.engines.get()
        var cache = RuleEngine.PageCache()
        for test in Self.cases where test.request.url.utf8.count < 100_000 {
            for method in [nil, RequestMethod.post] {
                var request = test.request
                request.resourceType = type
                request.method = method
                let expected = reference.actions(for: request)
                #expect(
                    engine.decision(for: request, cache: &cache).appliedActions == expected.withoutRuleIndices,
                    "\(test.name) as \(type.rawValue), \(method?.rawValue ?? "GET")")
            }
        }
    }

    // MARK: - Damaged compiled files

    static let compiled = Result { try RuleEngine(ruleList: RuleList(parsing: list)).compiled() }

    static let probes = cases.map(\.request).filter {
        $0.url.utf8.count + $0.topURL.utf8.count + ($0.frameURL?.utf8.count ?? 0) < 1_000
    }

    @Test("every truncation is refused")
    func truncations() throws {
        let bytes = try Self.compiled.get()
        for length in 0..<bytes.count {
            #expect(throws: CompiledEngineError.self, "\(length) of \(bytes.count) bytes") {
                try RuleEngine(compiled: Array(bytes[..<length]))
            }
        }
    }

    @Test("flipped bits are refused by the checksum")
    func flippedBits() throws {
        let bytes = try Self.compiled.get()
        var random = SplitMixGenerator(seed: 1)
        for _ in 0..<500 {
            var damaged = bytes
            let position = Int(random.next() % UInt64(bytes.count))
            damaged[position] ^= UInt8(1 << (random.next() % 8))
            #expect(throws: CompiledEngineError.self, "bit flipped at \(position)") { try RuleEngine(compiled: damaged) }
        }
    }

    /// Damage behind a valid checksum (a file written wrong, not garbled): the loader must refuse
    /// it as corrupt or load something that answers, never trap or loop.
    @Test("damaged payloads with valid checksums are refused or answer")
    func damagedPayloads() throws {
        let bytes = try Self.compiled.get()
        let payload = Array(bytes[CompiledFormat.headerSize...])
        var random = SplitMixGenerator(seed: 2)
        var refused = 0
        var damagedCount = 0
        func attempt(_ damaged: [UInt8]) {
            damagedCount += 1
            do {
                let engine = try RuleEngine(compiled: CompiledFormat.wrap(damaged))
                var cache = RuleEngine.PageCache()
                for request in Self.probes { _ = engine.decision(for: request, cache: &cache) }
            } catch {
                refused += 1
            }
        }
        // About a thousand bytes set to 0xFF, spread over the payload, then random bytes at
        // random places.
        for position in stride(from: 0, to: payload.count, by: max(1, payload.count / 1_000)) {
            var damaged = payload
            damaged[position] = damaged[position] == 0xFF ? 0 : 0xFF
            attempt(damaged)
        }
        for _ in 0..<300 {
            var damaged = payload
            for _ in 0..<Int(1 + random.next() % 4) {
                damaged[Int(random.next() % UInt64(payload.count))] = UInt8(truncatingIfNeeded: random.next())
            }
            attempt(damaged)
        }
        // Cut short or grown, with the lengths made consistent.
        for length in stride(from: 0, to: payload.count, by: max(1, payload.count / 200)) {
            attempt(Array(payload[..<length]))
        }
        attempt(payload + [0, 0, 0, 0])
        #expect(refused > 0, "\(refused) of \(damagedCount) damaged payloads refused")
    }
}
