/// The HTTP method a trigger's `request-method` names.
///
/// WebKit compares it with the method of the *document's* request, not of the subresource: on a
/// page loaded with GET, a `fetch(url, {method: "POST"})` is a GET load for content blockers.
public enum RequestMethod: String, Sendable, Hashable, CaseIterable {
    /// `GET`
    case get
    /// `HEAD`
    case head
    /// `OPTIONS`
    case options
    /// `TRACE`
    case trace
    /// `PUT`
    case put
    /// `DELETE`
    case delete
    /// `POST`
    case post
    /// `PATCH`
    case patch
    /// `CONNECT`
    case connect

    /// Reads a method name the way WebKit does: ASCII case-insensitively.
    public init?(name: String) {
        var lowercased = ""
        lowercased.reserveCapacity(name.utf8.count)
        for scalar in name.unicodeScalars {
            guard scalar.isASCII else { return nil }
            lowercased.unicodeScalars.append(
                scalar.value >= 65 && scalar.value <= 90 ? Unicode.Scalar(scalar.value + 32) ?? scalar : scalar)
        }
        self.init(rawValue: lowercased)
    }
}

extension RequestMethod {
    /// A non-zero 4-bit code, as WebKit stores the method in a trigger's flags.
    var code: UInt8 {
        switch self {
        case .get: 1
        case .head: 2
        case .options: 3
        case .trace: 4
        case .put: 5
        case .delete: 6
        case .post: 7
        case .patch: 8
        case .connect: 9
        }
    }
}
