public import Foundation

/// An HTTP server on 127.0.0.1 for one test (`Tests/UpdateServer/loopback_server.py`, run with
/// `python3`): each path answers as its ``Route`` says, the routes can change between requests,
/// and every request is logged with its conditional headers and how much of the body went out.
///
/// ```swift
/// let server = try LoopbackServer()
/// try server.route("/tds.json", .init(body: tds, etag: "\"v1\""))
/// … server.url("/tds.json") …
/// server.requests("/tds.json").last?.ifNoneMatch   // "\"v1\"" on the second request
/// ```
public final class LoopbackServer: @unchecked Sendable {
    /// How one path answers (see the script's docstring).
    public struct Route: Sendable {
        public var status = 200
        public var body = ""
        public var etag: String?
        public var lastModified: String?
        public var headers: [String: String] = [:]
        /// Seconds before the answer.
        public var delay: Double = 0
        /// The Content-Length announced instead of the body's.
        public var contentLength: Int?
        /// A redirect's Location; `{port}` becomes the server's port.
        public var location: String?
        /// A body of `count` chunks of `chunk` bytes, `interval` seconds apart, without Content-Length.
        public var stream: (chunk: Int, count: Int, interval: Double)?

        public init(
            status: Int = 200, body: String = "", etag: String? = nil, lastModified: String? = nil, headers: [String: String] = [:],
            delay: Double = 0, contentLength: Int? = nil, location: String? = nil, stream: (chunk: Int, count: Int, interval: Double)? = nil
        ) {
            self.status = status
            self.body = body
            self.etag = etag
            self.lastModified = lastModified
            self.headers = headers
            self.delay = delay
            self.contentLength = contentLength
            self.location = location
            self.stream = stream
        }

        var json: [String: Any] {
            var object: [String: Any] = ["status": status, "body": body, "headers": headers, "delay": delay]
            if let etag { object["etag"] = etag }
            if let lastModified { object["lastModified"] = lastModified }
            if let contentLength { object["contentLength"] = contentLength }
            if let location { object["location"] = location }
            if let stream { object["stream"] = ["chunk": stream.chunk, "count": stream.count, "interval": stream.interval] }
            return object
        }
    }

    /// One request the server answered.
    public struct Request: Sendable {
        public let path: String
        public let ifNoneMatch: String?
        public let ifModifiedSince: String?
        /// The status sent; nil when the connection broke before.
        public let status: Int?
        /// Body bytes written before the answer ended or the client went away.
        public let sent: Int
        /// Whether the whole answer went out.
        public let complete: Bool
    }

    /// The port it listens on.
    public let port: Int
    private let directory: URL
    private let process: Process
    private var routes: [String: [Route]] = [:]
    private let lock = NSLock()

    /// The script.
    public static let script = SharedData.packageRoot.appendingPathComponent("Tests/UpdateServer/loopback_server.py")

    /// Starts a server with no route (every path a 404) and waits until it listens.
    public init() throws {
        guard let python = ChildProcess.executable(named: "python3") else { throw ServerError("python3 is not on PATH") }
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("trackerless-server-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data("{}".utf8).write(to: directory.appendingPathComponent("routes.json"))
        process = Process()
        process.executableURL = python
        process.arguments = [Self.script.path, directory.path]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let portFile = directory.appendingPathComponent("port")
        let deadline = Date(timeIntervalSinceNow: 60)
        var port: Int?
        while port == nil && Date() < deadline && process.isRunning {
            port = (try? String(contentsOf: portFile, encoding: .utf8)).flatMap { Int($0) }
            if port == nil { usleep(20_000) }
        }
        guard let port else {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            throw ServerError("the loopback server did not start within 60 s")
        }
        self.port = port
    }

    deinit {
        if process.isRunning {
            // SIGKILL: a test runner's children may inherit SIGTERM blocked.
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: directory)
    }

    /// `http://127.0.0.1:<port><path>`.
    public func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)")!
    }

    /// Makes `path` answer as `route` from the next request on.
    public func route(_ path: String, _ route: Route) throws {
        try self.route(path, sequence: [route])
    }

    /// Makes `path` answer as `sequence` says: the path's first request since the server started
    /// as its first route, the second as its second, and every request after its end as its last.
    public func route(_ path: String, sequence: [Route]) throws {
        lock.lock()
        defer { lock.unlock() }
        routes[path] = sequence
        let json = try JSONSerialization.data(withJSONObject: routes.mapValues { (sequence) -> Any in sequence.count == 1 ? sequence[0].json : sequence.map(\.json) })
        let temporary = directory.appendingPathComponent("routes.json.tmp")
        try json.write(to: temporary)
        guard rename(temporary.path, directory.appendingPathComponent("routes.json").path) == 0 else { throw ServerError("cannot replace routes.json") }
    }

    /// The requests answered so far, of `path` or of every path, in order.
    public func requests(_ path: String? = nil) -> [Request] {
        guard let text = try? String(contentsOf: directory.appendingPathComponent("requests.jsonl"), encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let requestPath = object["path"] as? String, path == nil || path == requestPath
            else { return nil }
            return Request(
                path: requestPath, ifNoneMatch: object["ifNoneMatch"] as? String, ifModifiedSince: object["ifModifiedSince"] as? String,
                status: object["status"] as? Int, sent: object["sent"] as? Int ?? 0, complete: object["complete"] as? Bool ?? false)
        }
    }

    /// Waits until `path` has been requested `count` times (a request is logged once its answer
    /// ended), up to `seconds` of polling (``Polling``); returns the requests found.
    public func waitForRequests(_ path: String, count: Int, seconds: Double = 120) async -> [Request] {
        _ = await Polling.until(seconds: seconds) { requests(path).count >= count }
        return requests(path)
    }

    /// Waits until `path` has been requested `count` times, counting requests as they arrive
    /// (before their answer), up to `seconds` of polling (``Polling``); returns whether it was.
    public func waitForArrivals(_ path: String, count: Int, seconds: Double = 120) async -> Bool {
        func arrived() -> Int {
            let text = (try? String(contentsOf: directory.appendingPathComponent("arrivals.jsonl"), encoding: .utf8)) ?? ""
            return text.split(separator: "\n").filter { $0.contains("\"\(path)\"") }.count
        }
        return await Polling.until(seconds: seconds) { arrived() >= count }
    }

    public struct ServerError: Error, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }
}
