import TrackerlessCore

/// What the Disconnect files add to ``JSONReader``: errors that name the file, and domain lists
/// checked as they are read.
struct DocumentReader {
    /// How errors name the file.
    let file: String
    let publicSuffixList: PublicSuffixList

    /// Reads `bytes` with `body`, its errors made ``DisconnectListError``s that name the file.
    func read<Result>(
        _ bytes: [UInt8], _ body: (inout JSONReader) throws(JSONReadError) -> Result
    ) throws(DisconnectListError) -> Result {
        do throws(JSONReadError) {
            return try JSONReader.read(bytes, body)
        } catch {
            switch error {
            case .syntax(let error):
                throw DisconnectListError(file: file, error)
            case .invalidValue(let error):
                throw DisconnectListError(file: file, path: error.path, kind: .unexpectedValue, reason: error.reason)
            case .rejected(let error as DisconnectListError):
                throw error
            case .rejected(let error):
                preconditionFailure("a Disconnect list decoder threw \(error), not a DisconnectListError")
            }
        }
    }

    /// Reads the object that comes next and returns the value of its member `key`, read by
    /// `readMember`; an error names the object when it has no such member.
    ///
    /// As a lookup in the parsed tree would, it reads the last `key` of duplicates and reports
    /// only its problems.
    func requiredMember<Member>(
        _ key: StaticString, _ reader: inout JSONReader, at path: @autoclosure () -> JSONPath,
        _ readMember: (inout JSONReader) throws(JSONReadError) -> Member
    ) throws(JSONReadError) -> Member {
        var member: Result<Member, JSONReadError>?
        var members = try reader.enterObject(at: path())
        while let name = try reader.nextKey(in: &members) {
            if key ~= name {
                member = try reader.readResult(readMember)
            } else {
                try reader.skipValue()
            }
        }
        guard let member else { throw missing(key, at: path()) }
        return try member.get()
    }

    /// The error for an object at `path` without the member `key`, in JSONNode's words.
    func missing(_ key: StaticString, at path: JSONPath) -> JSONReadError {
        .invalidValue(JSONDecodingError(path: path, reason: "missing required member \"\(key)\""))
    }

    /// An array of tracker domains, none of them a public suffix.
    func trackerDomains(_ reader: inout JSONReader, at path: @autoclosure () -> JSONPath) throws(JSONReadError)
        -> [TrackerDomain]
    {
        var domains: [TrackerDomain] = []
        var elements = try reader.enterArray(at: path())
        while try reader.nextElement(in: &elements) {
            let index = domains.count
            let text = try reader.readString(at: path().appending(index: index))
            guard let domain = TrackerDomain(text) else {
                throw .rejected(DisconnectListError(
                    file: file, path: path().appending(index: index), kind: .invalidDomain(text),
                    reason: "\"\(text.excerpt())\" is not a domain name"))
            }
            // The ICANN section only, as shavar-list-creation checks: trackers such as
            // cloudfront.net or apps.fbsbx.com are suffixes of the private section.
            if publicSuffixList.registrableDomain(of: domain.host, includingPrivateDomains: false) == nil {
                throw .rejected(DisconnectListError(
                    file: file, path: path().appending(index: index), kind: .publicSuffix(text),
                    reason: "\"\(text)\" is a public suffix (ICANN section); a rule for it would block every site under it"))
            }
            domains.append(domain)
        }
        return domains
    }

    /// An array of site domains (entity properties and resources), lowercased.
    func siteDomains(_ reader: inout JSONReader, at path: @autoclosure () -> JSONPath) throws(JSONReadError) -> [String] {
        var domains: [String] = []
        var elements = try reader.enterArray(at: path())
        while try reader.nextElement(in: &elements) {
            let index = domains.count
            var text = try reader.readString(at: path().appending(index: index))
            if text.utf8.contains(where: { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }) {
                text = text.lowercased()
            }
            guard TrackerDomain.isDomainName(Substring(text)) else {
                throw .rejected(DisconnectListError(
                    file: file, path: path().appending(index: index), kind: .invalidDomain(text),
                    reason: "\"\(text.excerpt())\" is not a domain name"))
            }
            domains.append(text)
        }
        return domains
    }
}
