import Foundation
import TrackerlessCore
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One GET of one input with URLSession: conditional on the validators kept from the last
/// download, within the policy's timeout, size cap and redirect limits.
///
/// URLSession's own cache is off (an ephemeral session without a URL cache), so a `304 Not
/// Modified` reaches the updater instead of being answered from a copy it does not control, and
/// no cookie is sent or kept. The calls used are those of macOS 12 and iOS 15 and of
/// swift-corelibs-foundation's FoundationNetworking on Linux (libcurl).
struct HTTPDownload: Sendable {
    /// What a GET got: a body (200), or none (304).
    struct Response: Sendable {
        let status: Int
        /// The body of a 200; nil for a 304.
        let body: [UInt8]?
        let etag: String?
        let lastModified: String?
        /// The URL the answer came from, after redirects.
        let finalURL: String
    }

    /// Why a GET failed, and the status of the response when one came.
    struct Failure: Error, Sendable {
        let reason: UpdateError.Reason
        let status: Int?
    }

    let url: URL
    /// The `ETag` of the copy kept, sent as `If-None-Match`.
    let etag: String?
    /// The `Last-Modified` of the copy kept, sent as `If-Modified-Since`.
    let lastModified: String?
    let policy: UpdatePolicy

    /// Runs the GET and waits for its end: a whole answer, a failure, the timeout, or `cancellation`.
    func run(cancellation: UpdateCancellation?) -> Result<Response, Failure> {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.timeoutIntervalForRequest = policy.timeout
        configuration.timeoutIntervalForResource = policy.timeout
        let transfer = Transfer(download: self)
        // The delegate's calls on a serial queue of the transfer's own. An operation queue's
        // default on Linux is Dispatch's global queue, whose few threads a host (or a test run)
        // may keep busy with long work: then the request was not even sent for minutes.
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        queue.underlyingQueue = transfer.queue
        let session = URLSession(configuration: configuration, delegate: transfer, delegateQueue: queue)
        let task = session.dataTask(with: request(for: url))
        let token = cancellation?.onCancel { transfer.stop(.cancelled, task) }
        task.resume()
        // The whole try, redirects included, within the timeout: URLSession's own timeouts count
        // from the last byte (and libcurl's from the connection), so a trickling server would
        // keep it forever. The deadline is this thread's own wait, not a timer on Dispatch's
        // queues: on a machine whose queues are busy a timer fires late, a wait does not.
        if transfer.finished.wait(timeout: .now() + policy.timeout) == .timedOut {
            transfer.stop(.timedOut(seconds: policy.timeout), task)
        }
        if let token { cancellation?.remove(token) }
        session.finishTasksAndInvalidate()
        return transfer.result()
    }

    /// A GET of `url` with the conditional headers.
    func request(for url: URL) -> URLRequest {
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: policy.timeout)
        request.httpMethod = "GET"
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if let etag { request.setValue(etag, forHTTPHeaderField: "If-None-Match") }
        if let lastModified { request.setValue(lastModified, forHTTPHeaderField: "If-Modified-Since") }
        return request
    }

    /// Why a redirect from `current` to `next` is not followed; nil when it is.
    func redirectProblem(from current: URL, to next: URL, count: Int) -> String? {
        if count > policy.maxRedirects {
            return "more than \(policy.maxRedirects) redirects (the policy's maxRedirects), the last to \(next.absoluteString.excerpt())"
        }
        let scheme = next.scheme?.lowercased()
        guard scheme == "http" || scheme == "https", next.host != nil else {
            return "to \(next.absoluteString.excerpt()), which is not an http or https URL"
        }
        if current.scheme?.lowercased() == "https" && scheme == "http" {
            return "from https to http (\(next.absoluteString.excerpt())): the body would travel unencrypted"
        }
        if !policy.allowsCrossOriginRedirects, Self.origin(of: current) != Self.origin(of: next) {
            return "to another origin, \(Self.origin(of: next)) (the policy's allowsCrossOriginRedirects is off)"
        }
        return nil
    }

    /// Scheme, host and port, the port given even when it is the scheme's default.
    static func origin(of url: URL) -> String {
        let scheme = url.scheme?.lowercased() ?? ""
        let port = url.port ?? (scheme == "https" ? 443 : 80)
        return "\(scheme)://\(url.host?.lowercased() ?? ""):\(port)"
    }
}

/// The state of one GET, fed by URLSession's delegate calls (on one serial queue) and stopped
/// by the timer or a cancellation (on others); the lock guards it.
private final class Transfer: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    let finished = DispatchSemaphore(value: 0)
    /// The delegate queue's underlying queue, which an operation queue does not keep alive: held
    /// here, as long as the session holds its delegate.
    let queue = DispatchQueue(label: "Trackerless download")
    private let download: HTTPDownload
    private let lock = NSLock()
    private var response: HTTPURLResponse?
    private var body: [UInt8] = []
    /// The first failure; what follows it (a cancelled task's error) is its consequence.
    private var failure: UpdateError.Reason?
    private var error: Error?
    private var currentURL: URL
    private var redirects = 0

    init(download: HTTPDownload) {
        self.download = download
        currentURL = download.url
    }

    /// Records `reason` as the failure unless one is recorded; returns whether it was.
    @discardableResult
    private func fail(_ reason: UpdateError.Reason) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard failure == nil else { return false }
        failure = reason
        body = []
        return true
    }

    /// Ends the transfer from outside URLSession's queue: the timeout, a cancellation. The wait in
    /// ``HTTPDownload/run(cancellation:)`` ends at once; the task's own end comes later and
    /// changes nothing.
    func stop(_ reason: UpdateError.Reason, _ task: URLSessionTask) {
        if fail(reason) { task.cancel() }
        finished.signal()
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        guard let http = response as? HTTPURLResponse else {
            fail(.unreachable("the answer is not an HTTP response"))
            return completionHandler(.cancel)
        }
        lock.lock()
        self.response = http
        lock.unlock()
        let limit = download.policy.maxBytes
        switch http.statusCode {
        case 200 where http.expectedContentLength > Int64(limit):
            // Refused before a byte of the body is read.
            fail(.tooLarge(limit: limit, declared: Int(clamping: http.expectedContentLength)))
            completionHandler(.cancel)
        case 200, 304:
            completionHandler(.allow)
        default:
            // Its body (an error page) is not read.
            fail(.httpStatus(http.statusCode))
            completionHandler(.cancel)
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        lock.lock()
        guard failure == nil else {
            // libcurl may hand over what it had read before the cancellation took effect.
            lock.unlock()
            return
        }
        guard body.count + data.count <= download.policy.maxBytes else {
            lock.unlock()
            // Refused while reading: the transfer stops here, at most the limit held.
            fail(.tooLarge(limit: download.policy.maxBytes, declared: nil))
            dataTask.cancel()
            return
        }
        body.append(contentsOf: data)
        lock.unlock()
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        lock.lock()
        redirects += 1
        let current = currentURL
        let count = redirects
        lock.unlock()
        guard let next = request.url else {
            fail(.redirectRefused("a \(response.statusCode) without a usable Location"))
            return completionHandler(nil)
        }
        if let problem = download.redirectProblem(from: current, to: next, count: count) {
            fail(.redirectRefused(problem))
            completionHandler(nil)
            task.cancel()
            return
        }
        lock.lock()
        currentURL = next
        lock.unlock()
        // The validators of the kept copy go along: the server at the end of the redirect is
        // the one that answers 304.
        completionHandler(download.request(for: next))
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        lock.lock()
        self.error = error
        lock.unlock()
        finished.signal()
    }

    /// The answer, or why there is none.
    func result() -> Result<HTTPDownload.Response, HTTPDownload.Failure> {
        lock.lock()
        defer { lock.unlock() }
        let status = response?.statusCode
        if let failure { return .failure(.init(reason: failure, status: status)) }
        // What the Content-Length announced, when the body is sent as it is (a compressed body's
        // length is not the decoded one's).
        let encoding = response?.value(forHTTPHeaderField: "Content-Encoding")?.lowercased()
        let announced = response.flatMap { $0.expectedContentLength >= 0 && (encoding == nil || encoding == "identity") ? Int(clamping: $0.expectedContentLength) : nil }
        if let error {
            let code = (error as NSError).code
            if code == NSURLErrorTimedOut { return .failure(.init(reason: .timedOut(seconds: download.policy.timeout), status: status)) }
            if let announced, body.count < announced, status == 200 {
                return .failure(.init(reason: .truncated(expected: announced, received: body.count), status: status))
            }
            return .failure(.init(reason: .unreachable(error.localizedDescription), status: status))
        }
        guard let response else { return .failure(.init(reason: .unreachable("no HTTP response"), status: nil)) }
        if response.statusCode == 200, let announced, body.count < announced {
            return .failure(.init(reason: .truncated(expected: announced, received: body.count), status: status))
        }
        return .success(HTTPDownload.Response(
            status: response.statusCode, body: response.statusCode == 304 ? nil : body,
            etag: response.value(forHTTPHeaderField: "ETag"), lastModified: response.value(forHTTPHeaderField: "Last-Modified"),
            finalURL: currentURL.absoluteString))
    }
}
