import Foundation
public import TrackerlessCore

extension UpdateReport {
    /// The report as JSON, for the C API and `trackerless fetch --json`:
    ///
    /// ```json
    /// {"outcome": "refused", "setIdentity": "…", "nextCheckIn": 3600,
    ///  "error": {"input": "tds", "url": "https://…/tds.json", "status": 404, "reason": "http status",
    ///            "message": "tds (https://…/tds.json): HTTP status 404; only 200 and 304 are accepted"},
    ///  "inputs": [{"input": "tds", "url": "https://…/tds.json", "status": 404, "result": "failed", "attempts": 1, "error": {…}},
    ///             {"input": "privacy configuration", "url": "…", "status": 200, "result": "downloaded",
    ///              "bytes": 5120, "sha256": "…", "attempts": 1}]}
    /// ```
    ///
    /// `nextCheckIn` is in seconds from the report's date; members without a value are left out.
    public var jsonValue: JSONValue {
        var object = JSONObject([("outcome", .string(outcome.rawValue))])
        if let setIdentity { object.append("setIdentity", .string(setIdentity)) }
        // To the millisecond: a date and the same date plus the interval differ by a rounding.
        object.append("nextCheckIn", .number((nextCheck.timeIntervalSince(date) * 1000).rounded() / 1000))
        if let error { object.append("error", error.jsonValue) }
        if let storageError { object.append("storageError", storageError.jsonValue) }
        object.append("inputs", .array(inputs.map(\.jsonValue)))
        return .object(object)
    }
}

extension UpdateReport.Input {
    /// The input's answer as JSON (see ``UpdateReport/jsonValue``).
    public var jsonValue: JSONValue {
        var object = JSONObject([("input", .string(input.rawValue)), ("url", .string(url))])
        if let finalURL { object.append("finalURL", .string(finalURL)) }
        if let status { object.append("status", .number(Double(status))) }
        object.append("result", .string(result.rawValue))
        if let bytes { object.append("bytes", .number(Double(bytes))) }
        if let sha256 { object.append("sha256", .string(sha256)) }
        object.append("attempts", .number(Double(attempts)))
        if let error { object.append("error", error.jsonValue) }
        return .object(object)
    }
}

extension UpdateError {
    /// The error as JSON: `input`, `url`, `status` when known, `reason` (``reasonName``), `message`.
    public var jsonValue: JSONValue {
        var object = JSONObject()
        if let input { object.append("input", .string(input.rawValue)) }
        if let url { object.append("url", .string(url)) }
        if let status { object.append("status", .number(Double(status))) }
        object.append("reason", .string(reasonName))
        object.append("message", .string(description))
        return .object(object)
    }
}
