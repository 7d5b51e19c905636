
/// A WHATWG URL parser for absolute URLs, on UTF-8 bytes.
struct URLParser {
    /// The special schemes and their default ports; `file` has none.
    static let defaultPorts: [String: Int?] = [
        "http": 80, "https": 443, "ws": 80, "wss": 443, "ftp": 21, "file": nil,
    ]

    private let input: [UInt8]

    init(_ string: String) {
        // Leading and trailing C0 controls and spaces go; tabs and newlines go everywhere.
        var bytes = Array(string.utf8)
        let start = bytes.firstIndex(where: { $0 > 0x20 }) ?? bytes.count
        let end = (bytes.lastIndex(where: { $0 > 0x20 }) ?? -1) + 1
        if start >= end {
            bytes = []
        } else if start > 0 || end < bytes.count {
            bytes = Array(bytes[start..<end])
        }
        if bytes.contains(where: { $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) {
            bytes.removeAll(where: { $0 == 0x09 || $0 == 0x0A || $0 == 0x0D })
        }
        input = bytes
    }

    func parse() -> URLParts? {
        guard let colon = schemeEnd() else { return nil }
        let scheme = String(decoding: input[0..<colon].map { ASCII.lowercased($0) }, as: UTF8.self)
        let rest = input[(colon + 1)...]
        guard let defaultPort = Self.defaultPorts[scheme] else {
            return parseNonSpecial(scheme: scheme, rest)
        }
        if scheme == "file" {
            return parseFile(rest)
        }
        return parseSpecial(scheme: scheme, defaultPort: defaultPort, rest)
    }

    /// The index of the colon ending a valid scheme, or nil.
    private func schemeEnd() -> Int? {
        guard let first = input.first, Self.isAlpha(first) else { return nil }
        var index = 1
        while index < input.count {
            let byte = input[index]
            if byte == UInt8(ascii: ":") { return index }
            guard Self.isAlpha(byte) || Self.isDigit(byte)
                || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
            else { return nil }
            index += 1
        }
        return nil
    }

    // MARK: Schemes

    private func parseSpecial(scheme: String, defaultPort: Int?, _ rest: ArraySlice<UInt8>) -> URLParts? {
        // The "special authority ignore slashes" state: any run of / and \ before the authority.
        let authorityStart = rest.firstIndex(where: { !Self.isSlash($0, special: true) }) ?? rest.endIndex
        let authorityEnd = rest[authorityStart...].firstIndex(where: {
            Self.isSlash($0, special: true) || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#")
        }) ?? rest.endIndex
        var hostAndPort = rest[authorityStart..<authorityEnd]
        var userinfo: String?
        if let at = hostAndPort.lastIndex(of: UInt8(ascii: "@")) {
            userinfo = Self.serializeUserinfo(hostAndPort[..<at])
            hostAndPort = hostAndPort[(at + 1)...]
        }
        guard let (hostBytes, portBytes) = Self.splitHostAndPort(hostAndPort) else { return nil }
        guard let host = Self.parseHost(hostBytes, isSpecial: true), !host.isEmpty else { return nil }
        var port: Int?
        if let portBytes, !portBytes.isEmpty {
            guard let value = Self.parsePort(portBytes) else { return nil }
            port = value == defaultPort ? nil : value
        }
        var parts = URLParts(scheme: scheme, host: host, port: port, userinfo: userinfo, path: "/")
        parseTail(rest[authorityEnd...], special: true, hasAuthority: true, into: &parts)
        return parts
    }

    private func parseFile(_ rest: ArraySlice<UInt8>) -> URLParts? {
        var parts = URLParts(scheme: "file", host: "", path: "/")
        var tail = rest
        if rest.count >= 2, Self.isSlash(rest[rest.startIndex], special: true),
            Self.isSlash(rest[rest.startIndex + 1], special: true) {
            let hostStart = rest.startIndex + 2
            let hostEnd = rest[hostStart...].firstIndex(where: {
                Self.isSlash($0, special: true) || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#")
            }) ?? rest.endIndex
            let hostBytes = rest[hostStart..<hostEnd]
            if !hostBytes.isEmpty {
                guard let host = Self.parseHost(hostBytes, isSpecial: true) else { return nil }
                parts.host = host == "localhost" ? "" : host
            }
            tail = rest[hostEnd...]
        }
        parseTail(tail, special: true, hasAuthority: true, into: &parts)
        return parts
    }

    private func parseNonSpecial(scheme: String, _ rest: ArraySlice<UInt8>) -> URLParts? {
        var parts = URLParts(scheme: scheme, host: nil, path: "")
        if rest.count >= 2, rest[rest.startIndex] == UInt8(ascii: "/"), rest[rest.startIndex + 1] == UInt8(ascii: "/") {
            let authorityStart = rest.startIndex + 2
            let authorityEnd = rest[authorityStart...].firstIndex(where: {
                $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#")
            }) ?? rest.endIndex
            var hostAndPort = rest[authorityStart..<authorityEnd]
            if let at = hostAndPort.lastIndex(of: UInt8(ascii: "@")) {
                parts.userinfo = Self.serializeUserinfo(hostAndPort[..<at])
                hostAndPort = hostAndPort[(at + 1)...]
            }
            guard let (hostBytes, portBytes) = Self.splitHostAndPort(hostAndPort),
                let host = Self.parseHost(hostBytes, isSpecial: false)
            else { return nil }
            if let portBytes, !portBytes.isEmpty {
                guard let value = Self.parsePort(portBytes) else { return nil }
                parts.port = value
            }
            if host.isEmpty, parts.userinfo != nil || parts.port != nil { return nil }
            parts.host = host
            parseTail(rest[authorityEnd...], special: false, hasAuthority: true, into: &parts)
        } else if rest.first == UInt8(ascii: "/") {
            parseTail(rest, special: false, hasAuthority: false, into: &parts)
        } else {
            // An opaque path, as in data:, about:, mailto: and javascript: URLs.
            let pathEnd = rest.firstIndex(where: { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }) ?? rest.endIndex
            parts.path = Self.percentEncoded(rest[..<pathEnd], .c0Control)
            parseQueryAndFragment(rest[pathEnd...], special: false, into: &parts)
        }
        return parts
    }

    // MARK: Path, query, fragment

    /// Parses `/path?query#fragment` after the authority (or after the scheme for path-only URLs).
    private func parseTail(_ tail: ArraySlice<UInt8>, special: Bool, hasAuthority: Bool, into parts: inout URLParts) {
        let pathEnd = tail.firstIndex(where: { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }) ?? tail.endIndex
        parts.path = Self.normalizedPath(tail[..<pathEnd], special: special)
        parseQueryAndFragment(tail[pathEnd...], special: special, into: &parts)
    }

    private func parseQueryAndFragment(_ tail: ArraySlice<UInt8>, special: Bool, into parts: inout URLParts) {
        var rest = tail
        if rest.first == UInt8(ascii: "?") {
            let queryEnd = rest.firstIndex(of: UInt8(ascii: "#")) ?? rest.endIndex
            parts.query = Self.percentEncoded(rest[(rest.startIndex + 1)..<queryEnd], special ? .specialQuery : .query)
            rest = rest[queryEnd...]
        }
        if rest.first == UInt8(ascii: "#") {
            parts.fragment = Self.percentEncoded(rest.dropFirst(), .fragment)
        }
    }

    // MARK: Authority helpers

    /// Splits `host:port`, keeping the colons inside an IPv6 literal; nil if a bracket is unclosed
    /// or followed by something other than a port.
    private static func splitHostAndPort(_ bytes: ArraySlice<UInt8>) -> (ArraySlice<UInt8>, ArraySlice<UInt8>?)? {
        if bytes.first == UInt8(ascii: "[") {
            guard let close = bytes.firstIndex(of: UInt8(ascii: "]")) else { return nil }
            let host = bytes[...close]
            let after = bytes[(close + 1)...]
            if after.isEmpty { return (host, nil) }
            guard after.first == UInt8(ascii: ":") else { return nil }
            return (host, after.dropFirst())
        }
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else { return (bytes, nil) }
        return (bytes[..<colon], bytes[(colon + 1)...])
    }

    /// A port of decimal digits up to 65535 (leading zeros allowed), or nil.
    private static func parsePort(_ bytes: ArraySlice<UInt8>) -> Int? {
        var value = 0
        for byte in bytes {
            guard isDigit(byte) else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
            guard value <= 65535 else { return nil }
        }
        return value
    }

    private static func serializeUserinfo(_ bytes: ArraySlice<UInt8>) -> String? {
        let username: ArraySlice<UInt8>
        var password: ArraySlice<UInt8> = []
        if let colon = bytes.firstIndex(of: UInt8(ascii: ":")) {
            username = bytes[..<colon]
            password = bytes[(colon + 1)...]
        } else {
            username = bytes
        }
        guard !username.isEmpty || !password.isEmpty else { return nil }
        var serialized = percentEncoded(username, .userinfo)
        if !password.isEmpty { serialized += ":" + percentEncoded(password, .userinfo) }
        return serialized
    }

    // MARK: Bytes

    static func isSlash(_ byte: UInt8, special: Bool) -> Bool {
        byte == UInt8(ascii: "/") || (special && byte == UInt8(ascii: "\\"))
    }

    static func isAlpha(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
    }

    static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}
