import TrackerlessCore

extension DisconnectList {
    /// Reads `disconnect-blacklist.json`: `{"categories": {"Advertising": [{"Name": {"https://…": [domains], "dnt": "eff"}}, …], …}}`.
    ///
    /// Members other than `categories` (the `license`) are ignored. Inside a service, array
    /// members are domain lists whatever their key, string members are tags.
    ///
    /// - Parameters:
    ///   - bytes: The file's contents.
    ///   - file: How errors name the file.
    ///   - publicSuffixList: Tells public suffixes, which are rejected as tracker domains.
    /// - Throws: ``DisconnectListError`` naming the file and the JSON path: invalid JSON, wrong
    ///   types, an unknown category, a domain that is not a domain name or is a public suffix.
    public init(
        parsing bytes: [UInt8], file: String = "disconnect-blacklist.json",
        publicSuffixList: PublicSuffixList = .bundled
    ) throws(DisconnectListError) {
        let reader = DocumentReader(file: file, publicSuffixList: publicSuffixList)
        let root = try reader.root(of: bytes)
        var services: [Service] = []
        for (categoryName, categoryNode) in try reader.decoding({ () throws(JSONDecodingError) in
            try root.required("categories").members()
        }) {
            guard let category = DisconnectCategory(rawValue: categoryName) else {
                throw DisconnectListError(
                    file: file, path: categoryNode.path, kind: .unknownCategory(categoryName),
                    reason: "unknown category \"\(categoryName)\"; known categories: "
                        + DisconnectCategory.allCases.map(\.rawValue).joined(separator: ", "))
            }
            for item in try reader.decoding({ () throws(JSONDecodingError) in try categoryNode.array() }) {
                for (name, serviceNode) in try reader.decoding({ () throws(JSONDecodingError) in try item.members() }) {
                    var service = Service(category: category, name: name, domains: [])
                    for (key, member) in try reader.decoding({ () throws(JSONDecodingError) in try serviceNode.members() }) {
                        if case .string(let value) = member.value {
                            service.tags[key] = value
                        } else {
                            service.domains += try reader.trackerDomains(member)
                        }
                    }
                    services.append(service)
                }
            }
        }
        self.init(services: services)
    }
}

/// The steps every input file shares, with errors that name the file.
struct DocumentReader {
    /// How errors name the file.
    let file: String
    let publicSuffixList: PublicSuffixList

    /// The document's root value.
    func root(of bytes: [UInt8]) throws(DisconnectListError) -> JSONNode {
        do throws(JSONSyntaxError) {
            return JSONNode(try JSONParser.parse(bytes))
        } catch {
            throw DisconnectListError(file: file, error)
        }
    }

    /// The result of a decoding step, its error named with the file.
    func decoding<Value>(_ step: () throws(JSONDecodingError) -> Value) throws(DisconnectListError) -> Value {
        do throws(JSONDecodingError) {
            return try step()
        } catch {
            throw DisconnectListError(file: file, error)
        }
    }

    /// An array of tracker domains, none of them a public suffix.
    func trackerDomains(_ node: JSONNode) throws(DisconnectListError) -> [TrackerDomain] {
        let elements = try decoding({ () throws(JSONDecodingError) in try node.array() })
        var domains: [TrackerDomain] = []
        domains.reserveCapacity(elements.count)
        for element in elements {
            let text = try decoding({ () throws(JSONDecodingError) in try element.string() })
            guard let domain = TrackerDomain(text) else {
                throw DisconnectListError(
                    file: file, path: element.path, kind: .invalidDomain(text),
                    reason: "\"\(text)\" is not a domain name")
            }
            // The ICANN section only, as shavar-list-creation checks: trackers such as
            // cloudfront.net or apps.fbsbx.com are suffixes of the private section.
            if publicSuffixList.registrableDomain(of: domain.host, includingPrivateDomains: false) == nil {
                throw DisconnectListError(
                    file: file, path: element.path, kind: .publicSuffix(text),
                    reason: "\"\(text)\" is a public suffix (ICANN section); a rule for it would block every site under it")
            }
            domains.append(domain)
        }
        return domains
    }

    /// An array of site domains (entity properties and resources), lowercased.
    func siteDomains(_ node: JSONNode) throws(DisconnectListError) -> [String] {
        let elements = try decoding({ () throws(JSONDecodingError) in try node.array() })
        var domains: [String] = []
        domains.reserveCapacity(elements.count)
        for element in elements {
            let text = try decoding({ () throws(JSONDecodingError) in try element.string() }).lowercased()
            guard TrackerDomain.isDomainName(Substring(text)) else {
                throw DisconnectListError(
                    file: file, path: element.path, kind: .invalidDomain(text),
                    reason: "\"\(text)\" is not a domain name")
            }
            domains.append(text)
        }
        return domains
    }
}
