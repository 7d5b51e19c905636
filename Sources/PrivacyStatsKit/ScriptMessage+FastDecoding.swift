import Foundation
import TrackerDataKit

extension ScriptMessage {
    /// Decodes the common shape of a message straight from its bytes, without building a JSON
    /// tree: what the scripts send (ASCII strings without escapes, integers, no unknown or
    /// repeated members) and nothing else is wrong with it.
    ///
    /// Returns nil for anything outside that shape, and the caller decodes with the full parser;
    /// what it returns is what the full decoding returns, so it changes only the speed.
    static func fastDecode(
        _ bytes: [UInt8], limits: PrivacyStats.Limits, acceptsSecret: (String) -> Bool
    ) -> ScriptMessage? {
        bytes.withUnsafeBufferPointer { buffer in
            var scanner = MessageScanner(bytes: buffer, limits: limits)
            return scanner.message(acceptsSecret: acceptsSecret)
        }
    }
}

/// A cursor over a message's bytes for ``ScriptMessage/fastDecode(_:limits:acceptsSecret:)``.
/// Every method returns nil (or false) when the input leaves the shape it handles.
private struct MessageScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    let limits: PrivacyStats.Limits
    var position = 0

    init(bytes: UnsafeBufferPointer<UInt8>, limits: PrivacyStats.Limits) {
        self.bytes = bytes
        self.limits = limits
    }

    mutating func message(acceptsSecret: (String) -> Bool) -> ScriptMessage? {
        var version: Int?, secret: String?, script: ScriptMessage.Script?, page: ScriptMessage.Page?
        var sequence: Int?, events: [ObservedEvent]?, dropped = 0
        var seen: Set<String> = []
        guard consume(0x7B) else { return nil }  // {
        if !consume(0x7D) {
            repeat {
                guard let key = string(), seen.insert(key).inserted, consume(0x3A) else { return nil }
                switch key {
                case "trackerless": version = integer()
                case "secret": secret = string()
                case "script": script = string().flatMap(ScriptMessage.Script.init(rawValue:))
                case "page": page = self.page()
                case "seq": sequence = integer()
                case "events": events = self.events()
                case "dropped":
                    guard let count = integer() else { return nil }
                    dropped = count
                default: return nil
                }
            } while consume(0x2C)
            guard consume(0x7D) else { return nil }
        }
        skipWhitespace()
        guard position == bytes.count, version == 1, let secret, acceptsSecret(secret), let script, let page,
            let sequence, let events, events.count <= limits.maxEventsPerMessage,
            page.url.utf8.count <= limits.maxURLBytes, page.frame.utf8.count <= limits.maxURLBytes
        else { return nil }
        return ScriptMessage(
            secret: secret, script: script, page: page, sequence: sequence, events: events, dropped: dropped)
    }

    private mutating func page() -> ScriptMessage.Page? {
        var id: String?, url: String?, frame: String?, isTopFrame: Bool?
        var seen: Set<String> = []
        guard consume(0x7B) else { return nil }
        repeat {
            guard let key = string(), seen.insert(key).inserted, consume(0x3A) else { return nil }
            switch key {
            case "id": id = string()
            case "url": url = string()
            case "frame": frame = string()
            case "isTopFrame": isTopFrame = boolean()
            default: return nil
            }
        } while consume(0x2C)
        guard consume(0x7D), let id, !id.isEmpty, id.utf8.count <= 64, let url, let frame, let isTopFrame else { return nil }
        return ScriptMessage.Page(id: id, url: url, frame: frame, isTopFrame: isTopFrame)
    }

    private mutating func events() -> [ObservedEvent]? {
        guard consume(0x5B) else { return nil }  // [
        var events: [ObservedEvent] = []
        if consume(0x5D) { return events }
        repeat {
            guard events.count < limits.maxEventsPerMessage, let event = event() else { return nil }
            events.append(event)
        } while consume(0x2C)
        return consume(0x5D) ? events : nil
    }

    private mutating func event() -> ObservedEvent? {
        var kind: Range<Int>?, url: Range<Int>?, type: Range<Int>?, state: Range<Int>?, surrogate: Range<Int>?
        var seen = 0
        guard consume(0x7B) else { return nil }
        // Keys and values stay byte ranges; only the URL and a surrogate name become strings.
        repeat {
            guard let key = rawString(), consume(0x3A), let value = rawString() else { return nil }
            let bit: Int
            if equals(key, Self.kindKey) {
                (bit, kind) = (1, value)
            } else if equals(key, Self.urlKey) {
                (bit, url) = (2, value)
            } else if equals(key, Self.typeKey) {
                (bit, type) = (4, value)
            } else if equals(key, Self.stateKey) {
                (bit, state) = (8, value)
            } else if equals(key, Self.surrogateKey) {
                (bit, surrogate) = (16, value)
            } else {
                return nil
            }
            guard seen & bit == 0 else { return nil }
            seen |= bit
        } while consume(0x2C)
        guard consume(0x7D), let kind, let url, url.count <= limits.maxURLBytes else { return nil }
        if equals(kind, Self.requestKind) {
            guard seen == 1 | 2 | 4 | 8, let type, let state,
                let requestType = Self.types.first(where: { equals(type, $0.bytes) })?.type,
                let observed = Self.states.first(where: { equals(state, $0.bytes) })?.state
            else { return nil }
            return .request(url: text(url), type: requestType, state: observed)
        } else if equals(kind, Self.surrogateKind) {
            guard seen == 1 | 2 | 16, let surrogate, !surrogate.isEmpty, surrogate.count <= 256 else { return nil }
            return .surrogate(url: text(url), surrogate: text(surrogate))
        } else if equals(kind, Self.navigationKind) {
            guard seen == 1 | 2 else { return nil }
            return .navigation(url: text(url))
        }
        return nil
    }

    private static let kindKey = Array("kind".utf8), urlKey = Array("url".utf8), typeKey = Array("type".utf8)
    private static let stateKey = Array("state".utf8), surrogateKey = Array("surrogate".utf8)
    private static let requestKind = Array("request".utf8), surrogateKind = Array("surrogate".utf8)
    private static let navigationKind = Array("navigation".utf8)
    private static let types: [(bytes: [UInt8], type: RequestType)] = RequestType.observable
        .sorted { $0.rawValue < $1.rawValue }.map { (Array($0.rawValue.utf8), $0) }
    private static let states: [(bytes: [UInt8], state: ObservedState)] = ObservedState.allCases.map {
        (Array($0.rawValue.utf8), $0)
    }

    /// Whether the bytes at `range` are `literal` (never empty).
    private func equals(_ range: Range<Int>, _ literal: [UInt8]) -> Bool {
        guard range.count == literal.count, let base = bytes.baseAddress else { return false }
        return literal.withUnsafeBufferPointer { memcmp(base + range.lowerBound, $0.baseAddress!, range.count) == 0 }
    }

    private func text(_ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    // MARK: - Tokens

    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    /// Skips whitespace, then the byte if it is next.
    private mutating func consume(_ byte: UInt8) -> Bool {
        skipWhitespace()
        guard position < bytes.count, bytes[position] == byte else { return false }
        position += 1
        return true
    }

    /// A string of printable ASCII without escapes.
    private mutating func string() -> String? {
        rawString().map(text)
    }

    /// Where the contents of a string of printable ASCII without escapes are.
    private mutating func rawString() -> Range<Int>? {
        guard consume(0x22) else { return nil }
        let start = position
        while position < bytes.count {
            let byte = bytes[position]
            if byte == 0x22 {
                position += 1
                return start..<(position - 1)
            }
            guard byte >= 0x20, byte < 0x7F, byte != 0x5C else { return nil }
            position += 1
        }
        return nil
    }

    /// `0` or a positive integer of at most 15 digits, without sign, fraction or exponent.
    private mutating func integer() -> Int? {
        skipWhitespace()
        let start = position
        var value = 0
        while position < bytes.count, (0x30...0x39).contains(bytes[position]) {
            // Checked before the digit is added: 19 digits and more overflow `Int`.
            guard position - start < 15 else { return nil }
            value = value * 10 + Int(bytes[position] - 0x30)
            position += 1
        }
        let digits = position - start
        guard digits >= 1, digits <= 15, digits == 1 || bytes[start] != 0x30 else { return nil }
        // A number followed by anything but a delimiter (".5", "e3") is left to the full parser.
        if position < bytes.count {
            switch bytes[position] {
            case 0x2C, 0x7D, 0x5D, 0x20, 0x09, 0x0A, 0x0D: break
            default: return nil
            }
        }
        return value
    }

    private mutating func boolean() -> Bool? {
        skipWhitespace()
        for (literal, value) in [(Array("true".utf8), true), (Array("false".utf8), false)]
        where bytes.count - position >= literal.count && bytes[position..<position + literal.count].elementsEqual(literal) {
            position += literal.count
            return value
        }
        return nil
    }
}
