import Foundation
import Testing
import TrackerlessCore

/// Runs `harness/userscript_harness.py`: pages served by the loopback proxy, loaded in WebKitGTK
/// with user scripts (page world or an isolated world), script message handlers and rule lists.
///
/// It reports every script message the handlers received, every request the proxy received and
/// the page's own result record (a JavaScript expression evaluated once the page is done).
struct UserScriptHarness: Sendable {
    /// One user script, added in the order given.
    struct Script: Sendable {
        /// The source text.
        var source: String
        /// nil: the page's world; otherwise the name of an isolated script world.
        var world: String?
        /// Whether it runs in frames too, not only the top frame.
        var allFrames = true
        /// Whether it runs at document start (else at document end).
        var atDocumentStart = true
        /// When set, two markers around the script time its start-up, reported as
        /// `marks["<name>:before"]` and `marks["<name>:after"]` (performance.now(), top frame).
        var measure: String?
    }

    /// What the proxy answers for one URL.
    struct Resource: Sendable {
        var contentType: String
        var body: [UInt8]
        var status = 200
        /// Extra response headers (the proxy always adds `Access-Control-Allow-Origin: *`).
        var headers: [String: String] = [:]

        static func html(_ text: String) -> Resource {
            Resource(contentType: "text/html; charset=utf-8", body: Array(text.utf8))
        }

        static func script(_ text: String) -> Resource {
            Resource(contentType: "application/javascript", body: Array(text.utf8))
        }

        /// A 1×1 GIF.
        static let gif = Resource(
            contentType: "image/gif",
            body: Array(Data(base64Encoded: "R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7") ?? Data()))

        static func text(_ text: String) -> Resource {
            Resource(contentType: "text/plain", body: Array(text.utf8))
        }
    }

    /// One page to load.
    struct Page: Sendable {
        var id: String
        var url: String
        /// The page sets `document.title` to this when it has finished its checks.
        var doneTitle = "done"
        /// Seconds from the load until the page must be done.
        var timeout = 10.0
        /// Seconds to keep listening for messages once done (and again after leaving).
        var settle = 0.6
        /// Whether to navigate away afterwards, so `pagehide` handlers post what they hold.
        var leave = true
        /// A JavaScript expression evaluated in the page's world once settled: the page's result.
        var result: String?
        /// Whether to clear the cookie jar before the page and report its cookies for `url` after.
        var cookies = false
    }

    /// A cookie of the jar.
    struct Cookie: Sendable {
        var name: String
        var value: String
        /// Seconds since 1970; nil for a session cookie.
        var expires: Double?
    }

    /// Everything one harness run needs.
    struct Spec: Sendable {
        var ruleLists: [[UInt8]] = []
        var scripts: [Script] = []
        /// Script message handlers: a name and a world (nil: the page's world).
        var handlers: [(name: String, world: String?)] = []
        /// Handlers (name, world) whose postMessage is wrapped in the top frame before any script
        /// runs, to note when each message was posted (``PageResult/posts``).
        var tracePosts: [(handler: String, world: String?)] = []
        var resources: [String: Resource] = [:]
        var pages: [Page] = []
    }

    /// One script message as the host received it.
    struct Message: Sendable {
        /// The handler's name (WebKitGTK's signal does not say which world posted it).
        var handler: String
        /// Milliseconds from the start of the page load.
        var milliseconds: Double
        /// The message value, converted to JSON by WebKit (`jsc_value_to_json`).
        var body: JSONValue
    }

    /// One postMessage call in the top frame, noted in the posting world.
    struct Post: Sendable {
        /// performance.now() of the document at the call (1 ms steps in WebKit).
        var milliseconds: Double
        /// The message's `script` member.
        var script: String
        /// The message's `page.id` member.
        var pageID: String
    }

    /// One request the proxy received.
    struct Request: Sendable {
        /// The URL (http in absolute form, https as origin of the CONNECT tunnel plus path).
        var url: String
        var milliseconds: Double
    }

    /// What happened on one page.
    struct PageResult: Sendable {
        var id: String
        var title: String?
        /// Whether the page set its done title before its timeout.
        var done: Bool
        var loadFailed: String?
        var messages: [Message]
        var requests: [Request]
        /// The value of the page's `result` expression (nil when none was given).
        var result: JSONNode?
        var marks: [String: Double]
        /// The traced postMessage calls by world ("page" for the page's world).
        var posts: [String: [Post]]
        /// The jar's cookies for the page's URL, when the page asked for them.
        var cookies: [Cookie] = []

        /// Whether the proxy received `url` (compared without its fragment).
        func requested(_ url: String) -> Bool { requests.contains { $0.url == url } }

        /// The page's result member `key`, or nil.
        subscript(key: String) -> JSONNode? { result?[key] }
    }

    /// The harness script, next to this file in the source tree.
    let script: String

    /// The harness, or nil when WebKitGTK is missing (throws instead when required); the same
    /// prerequisites as ``WebKitHarness``, and like it the script runs inside the root named by
    /// `TRACKERLESS_WEBKIT_ROOT` when that is set (``WebKitHarness/run(_:stdin:stderrIn:)``: the
    /// spec's directory, which holds the rule lists it names, is bound at the same path).
    static func make() throws -> UserScriptHarness? {
        guard try WebKitHarness.make() != nil else { return nil }
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("harness/userscript_harness.py").path
        guard FileManager.default.fileExists(atPath: script) else {
            throw WebKitHarness.Failure.unavailable("\(script) is missing")
        }
        return UserScriptHarness(script: script)
    }

    /// One harness run at a time in this process: each starts a web process and Xvfb.
    private static let lock = NSLock()

    /// Loads every page of the spec, one after another, and reports each by id.
    func run(_ spec: Spec) throws -> [String: PageResult] {
        Self.lock.lock()
        defer { Self.lock.unlock() }
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("trackerless-userscripts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let specFile = directory.appendingPathComponent("spec.json")
        try Data(Self.json(of: spec, in: directory).jsonBytes()).write(to: specFile)
        let result = try WebKitHarness.run([WebKitHarness.python, script, specFile.path], stdin: nil,
                                           stderrIn: directory)
        guard result.status == 0 else {
            let lines = result.stderr.split(separator: "\n").filter { $0.hasPrefix("webkit_harness:") }
            throw WebKitHarness.Failure.failed(status: result.status, stderr: lines.joined(separator: "\n"))
        }
        return try Self.pages(from: Array(result.stdout))
    }

    private static func json(of spec: Spec, in directory: URL) throws -> JSONValue {
        var rules: [JSONValue] = []
        for (index, list) in spec.ruleLists.enumerated() {
            let file = directory.appendingPathComponent("rules\(index).json")
            try Data(list).write(to: file)
            rules.append(.string(file.path))
        }
        let scripts: [JSONValue] = spec.scripts.map { script in
            var object = JSONObject([
                ("source", .string(script.source)),
                ("world", script.world.map(JSONValue.string) ?? .null),
                ("frames", .string(script.allFrames ? "all" : "top")),
                ("time", .string(script.atDocumentStart ? "start" : "end")),
            ])
            if let measure = script.measure { object.append("measure", .string(measure)) }
            return .object(object)
        }
        let handlers: [JSONValue] = spec.handlers.map { handler in
            .object(JSONObject([("name", .string(handler.name)), ("world", handler.world.map(JSONValue.string) ?? .null)]))
        }
        var resources = JSONObject()
        for (url, resource) in spec.resources.sorted(by: { $0.key < $1.key }) {
            resources.append(url, .object(JSONObject([
                ("type", .string(resource.contentType)),
                ("body_base64", .string(Data(resource.body).base64EncodedString())),
                ("status", .number(Double(resource.status))),
                ("headers", .object(JSONObject(
                    resource.headers.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) }))),
            ])))
        }
        let pages: [JSONValue] = spec.pages.map { page in
            var object = JSONObject([
                ("id", .string(page.id)), ("url", .string(page.url)), ("done_title", .string(page.doneTitle)),
                ("timeout", .number(page.timeout)), ("settle", .number(page.settle)), ("leave", .bool(page.leave)),
            ])
            if let result = page.result { object.append("result", .string(result)) }
            if page.cookies { object.append("cookies", .bool(true)) }
            return .object(object)
        }
        return .object(JSONObject([
            ("rules", .array(rules)), ("scripts", .array(scripts)), ("handlers", .array(handlers)),
            ("trace_posts", .array(spec.tracePosts.map { trace in
                .object(JSONObject([
                    ("handler", .string(trace.handler)), ("world", trace.world.map(JSONValue.string) ?? .null),
                ]))
            })),
            ("resources", .object(resources)), ("pages", .array(pages)),
        ]))
    }

    private static func pages(from output: [UInt8]) throws -> [String: PageResult] {
        do {
            let root = JSONNode(try JSONParser.parse(output))
            var results: [String: PageResult] = [:]
            for page in try root.required("pages").array() {
                let messages = try page.required("messages").array().map { message in
                    Message(handler: try message.required("handler").string(),
                            milliseconds: try message.required("ms").double(),
                            body: try message.required("body").value)
                }
                let requests = try page.required("requests").array().map { request in
                    Request(url: try request.required("url").string(), milliseconds: try request.required("ms").double())
                }
                var marks: [String: Double] = [:]
                for (key, node) in try page.required("marks").members() { marks[key] = try node.double() }
                var posts: [String: [Post]] = [:]
                for (world, calls) in try page.required("posts").members() {
                    posts[world] = try calls.array().map { call in
                        let fields = try call.array()
                        guard fields.count == 3 else { throw WebKitHarness.Failure.badOutput("post \(call.value)") }
                        return Post(milliseconds: try fields[0].double(), script: try fields[1].string(),
                                    pageID: try fields[2].string())
                    }
                }
                let result = page["result"].flatMap { $0.isNull ? nil : $0 }
                let cookies = try (page["cookies"].flatMap { $0.isNull ? nil : $0 }?.array() ?? []).map { cookie in
                    Cookie(name: try cookie.required("name").string(), value: try cookie.required("value").string(),
                           expires: cookie["expires"].flatMap { $0.isNull ? nil : try? $0.double() })
                }
                let id = try page.required("id").string()
                results[id] = PageResult(
                    id: id, title: page["title"].flatMap { try? $0.string() }, done: try page.required("done").bool(),
                    loadFailed: page["load_failed"].flatMap { try? $0.string() }, messages: messages,
                    requests: requests, result: result, marks: marks, posts: posts, cookies: cookies)
            }
            return results
        } catch {
            throw WebKitHarness.Failure.badOutput("\(error): \(String(decoding: output.prefix(500), as: UTF8.self))")
        }
    }
}

/// The scripts and rule list of one `trackerless scripts` run (the real renderer, through the
/// executable that `swift build` put beside the test runner, or `TRACKERLESS_CLI`).
enum TrackerlessScriptsCommand {
    /// What `trackerless scripts --output DIR` wrote.
    struct Output: Sendable {
        var blocking: String
        var inference: String
        var rules: [UInt8]
        /// surrogates.txt: the surrogates blocking.js holds.
        var surrogatesIndex: String

        /// blocking.js in the page world, inference.js in `isolatedWorld`, both in every frame at
        /// document start (what a WebKitGTK host does), and the handler in both worlds.
        func harnessSpec(handler: String, isolatedWorld: String, measureBlocking: Bool = false)
            -> UserScriptHarness.Spec
        {
            var spec = UserScriptHarness.Spec()
            spec.ruleLists = [rules]
            spec.scripts = [
                .init(source: blocking, world: nil, measure: measureBlocking ? "blocking" : nil),
                .init(source: inference, world: isolatedWorld),
            ]
            spec.handlers = [(handler, nil), (handler, isolatedWorld)]
            spec.tracePosts = [(handler, nil), (handler, isolatedWorld)]
            return spec
        }
    }

    static let executable: URL = {
        if let path = ProcessInfo.processInfo.environment["TRACKERLESS_CLI"] { return URL(fileURLWithPath: path) }
        let runner = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var directory = runner.deletingLastPathComponent()
        while ["xctest", "MacOS", "Contents"].contains(where: { directory.lastPathComponent.hasSuffix($0) }) {
            directory = directory.deletingLastPathComponent()
        }
        return directory.appendingPathComponent("trackerless")
    }()

    /// Whether the executable is there and knows the `scripts` command.
    static let isAvailable: Bool = {
        guard FileManager.default.isExecutableFile(atPath: executable.path) else { return false }
        return (try? WebKitHarness.run([executable.path, "scripts", "--help"], stdin: nil).status) == 0
    }()

    /// Whether tests of rendered scripts in WebKit should run: WebKitGTK and the renderer are
    /// there, or WebKit is required (TRACKERLESS_REQUIRE_WEBKIT=1: then a missing one fails).
    static var shouldRunInWebKit: Bool { WebKitHarness.isRequired || (WebKitHarness.shouldRun && isAvailable) }

    static let skipMessage: Comment =
        "WebKitGTK (python3-gi, gir1.2-webkit2-4.1 or -4.0, xvfb; or the root of TRACKERLESS_WEBKIT_ROOT) or the `trackerless scripts` executable is missing"

    /// Renders for the blocklist `trackerData` (JSON text) or the file at `trackerDataFile`, with
    /// this tree's surrogates or those of the surrogates.txt text `surrogates`; `blockInScript`
    /// renders with --block-in-script (the data then holds every tracker, not only surrogate ones).
    static func render(
        trackerData: String? = nil, trackerDataFile: String? = nil, surrogates: String? = nil, secret: String,
        blockInScript: Bool = false
    ) throws -> Output {
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            throw WebKitHarness.Failure.unavailable("no trackerless executable at \(executable.path) (set TRACKERLESS_CLI)")
        }
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("trackerless-render-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var tds = trackerDataFile ?? ""
        if let trackerData {
            tds = directory.appendingPathComponent("tds.json").path
            try Data(trackerData.utf8).write(to: URL(fileURLWithPath: tds))
        }
        let output = directory.appendingPathComponent("out")
        // The templates and surrogates of this source tree, not a copy built into the executable.
        let root = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        var surrogatesPath = root.appendingPathComponent("Surrogates").path
        if let surrogates {
            surrogatesPath = directory.appendingPathComponent("surrogates.txt").path
            try Data(surrogates.utf8).write(to: URL(fileURLWithPath: surrogatesPath))
        }
        let command = [executable.path, "scripts", "--tds", tds, "--bridge", "webkit", "--secret", secret,
                       "--templates", root.appendingPathComponent("JSTemplates").path,
                       "--surrogates", surrogatesPath, "--output", output.path] + (blockInScript ? ["--block-in-script"] : [])
        let result = try WebKitHarness.run(command, stdin: nil, stderrIn: directory)
        guard result.status == 0 else {
            throw WebKitHarness.Failure.failed(status: result.status, stderr: "trackerless scripts: \(result.stderr)")
        }
        func read(_ name: String) throws -> Data { try Data(contentsOf: output.appendingPathComponent(name)) }
        return Output(blocking: String(decoding: try read("blocking.js"), as: UTF8.self),
                      inference: String(decoding: try read("inference.js"), as: UTF8.self),
                      rules: Array(try read("rules.json")),
                      surrogatesIndex: String(decoding: try read("surrogates.txt"), as: UTF8.self))
    }
}
