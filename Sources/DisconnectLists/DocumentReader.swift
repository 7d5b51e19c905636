import TrackerlessCore

/// The steps every input file shares, with errors that name the file and the JSON path.
///
/// The documents are walked as plain values; a path is built only for an error, which keeps
/// reading the lists several times faster than through `JSONNode`.
struct DocumentReader {
    /// How errors name the file.
    let file: String
    let publicSuffixList: PublicSuffixList

    /// The document's root value.
    func root(of bytes: [UInt8]) throws(DisconnectListError) -> JSONValue {
        do throws(JSONSyntaxError) {
            return try JSONParser.parse(bytes)
        } catch {
            throw DisconnectListError(file: file, error)
        }
    }

    func object(_ value: JSONValue, at path: @autoclosure () -> JSONPath) throws(DisconnectListError) -> JSONObject {
        guard case .object(let object) = value else { throw mismatch("an object", value, path()) }
        return object
    }

    func array(_ value: JSONValue, at path: @autoclosure () -> JSONPath) throws(DisconnectListError) -> [JSONValue] {
        guard case .array(let elements) = value else { throw mismatch("an array", value, path()) }
        return elements
    }

    /// The member `key` of an object, or an error naming the object.
    func member(_ object: JSONObject, _ key: String, at path: @autoclosure () -> JSONPath) throws(DisconnectListError)
        -> JSONValue
    {
        guard let member = object[key] else {
            throw DisconnectListError(
                file: file, path: path(), kind: .unexpectedValue, reason: "missing required member \"\(key)\"")
        }
        return member
    }

    /// An array of tracker domains, none of them a public suffix.
    func trackerDomains(_ value: JSONValue, at path: @autoclosure () -> JSONPath) throws(DisconnectListError)
        -> [TrackerDomain]
    {
        let elements = try array(value, at: path())
        var domains: [TrackerDomain] = []
        domains.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            guard case .string(let text) = element else {
                throw mismatch("a string", element, path().appending(index: index))
            }
            guard let domain = TrackerDomain(text) else {
                throw DisconnectListError(
                    file: file, path: path().appending(index: index), kind: .invalidDomain(text),
                    reason: "\"\(text.excerpt())\" is not a domain name")
            }
            // The ICANN section only, as shavar-list-creation checks: trackers such as
            // cloudfront.net or apps.fbsbx.com are suffixes of the private section.
            if publicSuffixList.registrableDomain(of: domain.host, includingPrivateDomains: false) == nil {
                throw DisconnectListError(
                    file: file, path: path().appending(index: index), kind: .publicSuffix(text),
                    reason: "\"\(text)\" is a public suffix (ICANN section); a rule for it would block every site under it")
            }
            domains.append(domain)
        }
        return domains
    }

    /// An array of site domains (entity properties and resources), lowercased.
    func siteDomains(_ value: JSONValue, at path: @autoclosure () -> JSONPath) throws(DisconnectListError) -> [String] {
        let elements = try array(value, at: path())
        var domains: [String] = []
        domains.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            guard case .string(var text) = element else {
                throw mismatch("a string", element, path().appending(index: index))
            }
            if text.utf8.contains(where: { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }) {
                text = text.lowercased()
            }
            guard TrackerDomain.isDomainName(Substring(text)) else {
                throw DisconnectListError(
                    file: file, path: path().appending(index: index), kind: .invalidDomain(text),
                    reason: "\"\(text.excerpt())\" is not a domain name")
            }
            domains.append(text)
        }
        return domains
    }

    /// `expected a string, found a number`, in JSONNode's words.
    private func mismatch(_ expected: String, _ value: JSONValue, _ path: JSONPath) -> DisconnectListError {
        let found =
            switch value {
            case .null: "null"
            case .bool: "a boolean"
            case .number: "a number"
            case .string: "a string"
            case .array: "an array"
            case .object: "an object"
            }
        return DisconnectListError(file: file, path: path, kind: .unexpectedValue, reason: "expected \(expected), found \(found)")
    }
}
