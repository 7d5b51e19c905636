import Foundation
public import TrackerlessCore

/// A script message as the host received it: JSON text, JSON bytes, or the object a web view
/// decoded for it (WebKit's `WKScriptMessage.body`).
///
/// ```swift
/// stats.receive(.json(body), tab: tab)                             // WebKitGTK, Android, WebView2 strings
/// stats.receive(MessageBody(foundationObject: message.body), tab: tab)  // WKScriptMessage on Apple
/// ```
public struct MessageBody: Sendable {
    enum Storage: Sendable {
        case bytes([UInt8])
        case value(JSONValue)
        /// A decoded object that was larger than the limit (its estimated size).
        case tooLarge(Int)
        /// A decoded object holding something JSON cannot express.
        case notJSON
    }

    let storage: Storage

    private init(_ storage: Storage) { self.storage = storage }

    /// A message posted as a JSON string (the Android bridge; WebKitGTK's `to_json`).
    public static func json(_ text: String) -> MessageBody { MessageBody(.bytes(Array(text.utf8))) }

    /// A message as the UTF-8 bytes of its JSON text.
    public static func bytes(_ bytes: [UInt8]) -> MessageBody { MessageBody(.bytes(bytes)) }

    /// A message already parsed into a JSON value.
    public static func value(_ value: JSONValue) -> MessageBody { MessageBody(.value(value)) }

    /// A message as a web view decoded it: `NSDictionary`/`[String: Any]`, arrays, strings,
    /// numbers, booleans and `NSNull`, nested.
    ///
    /// Converted at once, so the result is `Sendable`. A body whose strings and members add up to
    /// more than `maxBytes` (about its JSON size) is kept only as "too large", without converting
    /// the rest; anything that is not JSON-like makes the message malformed.
    public init(foundationObject: Any, maxBytes: Int = PrivacyStats.Limits.default.maxMessageBytes) {
        var budget = maxBytes
        switch Self.convert(foundationObject, budget: &budget, depth: 0) {
        case .some(let value) where budget >= 0: self.init(.value(value))
        case .some: self.init(.tooLarge(maxBytes - budget))
        case .none: self.init(budget < 0 ? .tooLarge(maxBytes - budget) : .notJSON)
        }
    }

    /// nil: not JSON-like, nested too deep, or the budget ran out (then `budget` < 0).
    private static func convert(_ object: Any, budget: inout Int, depth: Int) -> JSONValue? {
        guard depth < 32, budget >= 0 else { return nil }
        switch object {
        case let bool as Bool where type(of: object) == Bool.self:
            budget -= 5
            return .bool(bool)
        case let string as String:
            budget -= string.utf8.count + 2
            return .string(string)
        case let number as NSNumber:
            budget -= 8
            // WebKit hands JavaScript booleans over as NSNumbers of type "c" (char).
            if String(cString: number.objCType) == "c" { return .bool(number.boolValue) }
            return .number(number.doubleValue)
        case let number as Int:
            budget -= 8
            return .number(Double(number))
        case let number as Double:
            budget -= 8
            return .number(number)
        case is NSNull:
            budget -= 4
            return .null
        case let array as [Any]:
            var values: [JSONValue] = []
            values.reserveCapacity(min(array.count, 1024))
            for element in array {
                budget -= 1
                guard let value = convert(element, budget: &budget, depth: depth + 1) else { return nil }
                values.append(value)
            }
            return .array(values)
        case let dictionary as [String: Any]:
            var object = JSONObject()
            // Sorted so a converted message is the same whatever the dictionary's hash order.
            for key in dictionary.keys.sorted() {
                budget -= key.utf8.count + 4
                guard let element = dictionary[key], let value = convert(element, budget: &budget, depth: depth + 1)
                else { return nil }
                object.append(key, value)
            }
            return .object(object)
        default:
            return nil
        }
    }
}
