public import TrackerlessCore

/// Why an update from ``UpdateSources`` was refused: the input, the URL, the HTTP status when
/// there was one, and the reason. Nothing changed: the set in force and the kept downloads stay.
public struct UpdateError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong.
    public enum Reason: Sendable, Equatable {
        /// The source or the policy cannot be used as given (not an http or https URL, a SHA-256
        /// that is not 64 hex digits, a negative timeout).
        case invalidSource(String)
        /// No answer: the host not found, the connection refused or lost, TLS failed; the
        /// system's message.
        case unreachable(String)
        /// No whole answer within the policy's timeout.
        case timedOut(seconds: Double)
        /// An HTTP status other than 200 and 304.
        case httpStatus(Int)
        /// The body is larger than the policy's `maxBytes`; `declared` is its `Content-Length`
        /// when that said so before any of it was read.
        case tooLarge(limit: Int, declared: Int?)
        /// The connection ended before the body its `Content-Length` announced.
        case truncated(expected: Int, received: Int)
        /// A redirect that is not followed: too many, to `http` from `https`, to another origin
        /// when the policy keeps to one, to another scheme.
        case redirectRefused(String)
        /// The body is not the one the source pins.
        case checksumMismatch(expected: String, actual: String)
        /// The body is not a valid input: it does not decode, it is a blocklist without trackers.
        /// The message names the URL and the place (JSON path).
        case invalidBody(String)
        /// The runtime refused the set built from the downloads (a rule list WebKit would refuse).
        case rejected(ProtectionError)
        /// The downloads could not be kept (``ProtectionUpdater``'s directory, `trackerless
        /// fetch`'s output).
        case unwritable(FileError)
        /// The check was stopped (``ProtectionUpdater/stop()``).
        case cancelled
    }

    /// The input the error is about; nil when it is about none (storage, cancellation).
    public var input: ProtectionInput?
    /// The URL asked for; nil when the error is about no download.
    public var url: String?
    /// The HTTP status of the last response, when there was one.
    public var status: Int?
    /// What went wrong.
    public var reason: Reason

    /// An error about `input` downloaded from `url`.
    public init(input: ProtectionInput?, url: String?, status: Int? = nil, reason: Reason) {
        self.input = input
        self.url = url
        self.status = status
        self.reason = reason
    }

    /// The error of a check that ``ProtectionUpdater/stop()`` or a cancelled task ended.
    static let cancelledCheck = UpdateError(input: nil, url: nil, reason: .cancelled)

    /// Whether another try of the same download may succeed: no connection, a timeout, a cut
    /// body, HTTP 408 (timeout), 429 (too many requests) or 5xx.
    var isTransient: Bool {
        switch reason {
        case .unreachable, .timedOut, .truncated: true
        case .httpStatus(let status): status == 408 || status == 429 || (500...599).contains(status)
        default: false
        }
    }

    /// A short name of the reason, for JSON reports.
    public var reasonName: String {
        switch reason {
        case .invalidSource: "invalid source"
        case .unreachable: "unreachable"
        case .timedOut: "timed out"
        case .httpStatus: "http status"
        case .tooLarge: "too large"
        case .truncated: "truncated"
        case .redirectRefused: "redirect refused"
        case .checksumMismatch: "checksum mismatch"
        case .invalidBody: "invalid body"
        case .rejected: "rejected"
        case .unwritable: "unwritable"
        case .cancelled: "cancelled"
        }
    }

    /// The message: the input, the URL and what went wrong, for example `tds
    /// (https://example.com/tds.json): HTTP status 404`.
    public var description: String {
        // The runtime's error names the input and the place itself.
        if case .rejected = reason { return detail }
        let place: String =
            switch (input, url) {
            case (let input?, let url?): "\(input) (\(url)): "
            case (let input?, nil): "\(input): "
            case (nil, let url?): "\(url): "
            case (nil, nil): ""
            }
        return place + detail
    }

    private var detail: String {
        switch reason {
        case .invalidSource(let problem): problem
        case .unreachable(let message): "unreachable: \(message)"
        case .timedOut(let seconds): "no whole answer within \(Self.seconds(seconds)) s (the policy's timeout)"
        case .httpStatus(let status): "HTTP status \(status); only 200 and 304 are accepted"
        case .tooLarge(let limit, let declared?):
            "the body is \(declared) bytes (Content-Length), more than the limit of \(limit) bytes; not read"
        case .tooLarge(let limit, nil): "the body is larger than the limit of \(limit) bytes; reading stopped there"
        case .truncated(let expected, let received):
            "the connection ended after \(received) of the \(expected) bytes its Content-Length announced"
        case .redirectRefused(let why): "redirect not followed: \(why)"
        case .checksumMismatch(let expected, let actual): "the body's SHA-256 is \(actual), not the pinned \(expected)"
        case .invalidBody(let message): message
        case .rejected(let error): "the set built from the downloads was refused: \(error)"
        case .unwritable(let error): "the downloads could not be kept: \(error)"
        case .cancelled: "the check was stopped"
        }
    }

    /// `seconds` without a fraction when it has none.
    private static func seconds(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
