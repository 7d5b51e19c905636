public import TrackerlessCore

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
        let services = try reader.read(bytes) { (json) throws(JSONReadError) in
            try reader.requiredMember("categories", &json, at: .root) { (json) throws(JSONReadError) in
                try Self.services(&json, reader: reader)
            }
        }
        self.init(services: services)
    }

    /// The services of the `categories` object, in document order.
    private static func services(_ json: inout JSONReader, reader: DocumentReader) throws(JSONReadError) -> [Service] {
        let categoriesPath = JSONPath.root.appending(key: "categories")
        var services: [Service] = []
        var categories = try json.enterObject(at: categoriesPath)
        while let key = try json.nextKey(in: &categories) {
            let categoryName = key.string
            let categoryPath = categoriesPath.appending(key: categoryName)
            guard let category = DisconnectCategory(rawValue: categoryName) else {
                throw .rejected(DisconnectListError(
                    file: reader.file, path: categoryPath, kind: .unknownCategory(categoryName),
                    reason: "unknown category \"\(categoryName)\"; known categories: "
                        + DisconnectCategory.allCases.map(\.rawValue).joined(separator: ", ")))
            }
            var items = try json.enterArray(at: categoryPath)
            var index = 0
            while try json.nextElement(in: &items) {
                let itemPath = categoryPath.appending(index: index)
                var item = try json.enterObject(at: itemPath)
                while let nameKey = try json.nextKey(in: &item) {
                    let name = nameKey.string
                    let servicePath = itemPath.appending(key: name)
                    var service = Service(category: category, name: name, domains: [])
                    var members = try json.enterObject(at: servicePath)
                    // Array members are domain lists whatever their key, string members tags.
                    while let memberKey = try json.nextKey(in: &members) {
                        let key = memberKey.string
                        if try json.nextKind() == .string {
                            service.tags[key] = try json.readString(at: servicePath.appending(key: key))
                        } else {
                            service.domains += try reader.trackerDomains(&json, at: servicePath.appending(key: key))
                        }
                    }
                    services.append(service)
                }
                index += 1
            }
        }
        return services
    }
}
