extension CookieDecision {
    /// The request's headers without its `Cookie` headers (any spelling of the name) when the
    /// decision blocks cookies; unchanged otherwise. Order is kept.
    public func removingCookieHeaders(from headers: [(name: String, value: String)]) -> [(name: String, value: String)] {
        removing("cookie", from: headers)
    }

    /// The response's headers without its `Set-Cookie` headers (any spelling of the name) when
    /// the decision blocks cookies; unchanged otherwise. Order is kept.
    public func removingSetCookieHeaders(from headers: [(name: String, value: String)]) -> [(name: String, value: String)] {
        removing("set-cookie", from: headers)
    }

    private func removing(
        _ lowercaseName: String, from headers: [(name: String, value: String)]
    ) -> [(name: String, value: String)] {
        guard blocksCookies else { return headers }
        return headers.filter { !Self.name($0.name, equals: lowercaseName) }
    }

    /// Header names compare ASCII case-insensitively (RFC 9110 §5.1).
    private static func name(_ name: String, equals lowercaseName: String) -> Bool {
        name.utf8.count == lowercaseName.utf8.count
            && zip(name.utf8, lowercaseName.utf8).allSatisfy { byte, lower in
                (byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte) == lower
            }
    }
}
