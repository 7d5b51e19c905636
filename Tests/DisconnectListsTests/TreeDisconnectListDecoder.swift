@testable import DisconnectLists
import TrackerlessCore

/// The Disconnect list decoders before the single reader: the document parsed into a `JSONValue`
/// tree, then walked with lookups. Kept as the oracle the reader must agree with, list for list
/// and error for error.
enum TreeDisconnectListDecoder {
    static func disconnectList(
        _ bytes: [UInt8], file: String, publicSuffixList: PublicSuffixList = .bundled
    ) throws(DisconnectListError) -> DisconnectList {
        typealias Service = DisconnectList.Service
        let reader = TreeDocumentReader(file: file, publicSuffixList: publicSuffixList)
        let root = try reader.object(reader.root(of: bytes), at: .root)
        let categoriesPath = JSONPath.root.appending(key: "categories")
        let categories = try reader.object(reader.member(root, "categories", at: .root), at: categoriesPath)
        var services: [Service] = []
        for (categoryName, categoryValue) in zip(categories.keys, categories.values) {
            let categoryPath = categoriesPath.appending(key: categoryName)
            guard let category = DisconnectCategory(rawValue: categoryName) else {
                throw DisconnectListError(
                    file: file, path: categoryPath, kind: .unknownCategory(categoryName),
                    reason: "unknown category \"\(categoryName)\"; known categories: "
                        + DisconnectCategory.allCases.map(\.rawValue).joined(separator: ", "))
            }
            for (index, item) in try reader.array(categoryValue, at: categoryPath).enumerated() {
                let itemObject = try reader.object(item, at: categoryPath.appending(index: index))
                for (name, serviceValue) in zip(itemObject.keys, itemObject.values) {
                    let servicePath = { categoryPath.appending(index: index).appending(key: name) }
                    let serviceObject = try reader.object(serviceValue, at: servicePath())
                    var service = Service(category: category, name: name, domains: [])
                    for (key, member) in zip(serviceObject.keys, serviceObject.values) {
                        if case .string(let value) = member {
                            service.tags[key] = value
                        } else {
                            service.domains += try reader.trackerDomains(member, at: servicePath().appending(key: key))
                        }
                    }
                    services.append(service)
                }
            }
        }
        return DisconnectList(services: services)
    }

    static func entityList(_ bytes: [UInt8], file: String) throws(DisconnectListError) -> EntityList {
        typealias Entity = EntityList.Entity
        let reader = TreeDocumentReader(file: file, publicSuffixList: .bundled)
        let root = try reader.object(reader.root(of: bytes), at: .root)
        let entitiesPath = JSONPath.root.appending(key: "entities")
        let members = try reader.object(reader.member(root, "entities", at: .root), at: entitiesPath)
        var entities: [Entity] = []
        entities.reserveCapacity(members.count)
        for (name, value) in zip(members.keys, members.values) {
            let path = { entitiesPath.appending(key: name) }
            let entity = try reader.object(value, at: path())
            let properties = try reader.siteDomains(
                reader.member(entity, "properties", at: path()), at: path().appending(key: "properties"))
            let resources = try reader.siteDomains(
                reader.member(entity, "resources", at: path()), at: path().appending(key: "resources"))
            entities.append(Entity(name: name, properties: properties, resources: resources))
        }
        return EntityList(entities: entities)
    }

    static func normalizedList(_ bytes: [UInt8], file: String) throws(DisconnectListError) -> [TrackerDomain] {
        let reader = TreeDocumentReader(file: file, publicSuffixList: .bundled)
        return try reader.trackerDomains(reader.root(of: bytes), at: .root)
    }
}

/// The steps every input file shares, with errors that name the file and the JSON path.
///
/// The documents are walked as plain values; a path is built only for an error, which keeps
/// reading the lists several times faster than through `JSONNode`.
struct TreeDocumentReader {
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
                    reason: "\"\(text)\" is not a domain name")
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
                    reason: "\"\(text)\" is not a domain name")
            }
            domains.append(text)
        }
        return domains
    }

    /// `expected a string, found a number`, in JSONNode's words.
    private func mismatch(_ expected: String, _ value: JSONValue, _ path: JSONPath) -> DisconnectListError {
        let found = JSONNode.typeName(of: value)
        return DisconnectListError(file: file, path: path, kind: .unexpectedValue, reason: "expected \(expected), found \(found)")
    }
}
