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
        self.init(services: services)
    }
}
