import TrackerlessCore

extension EntityList {
    /// Reads `disconnect-entitylist.json`: `{"entities": {"Name": {"properties": [...], "resources": [...]}}}`.
    ///
    /// Domains are lowercased. Members other than `entities` (the `license`) are ignored.
    ///
    /// - Throws: ``DisconnectListError`` naming the file and the JSON path: invalid JSON, a
    ///   missing `properties` or `resources`, wrong types, a string that is not a domain name.
    public init(parsing bytes: [UInt8], file: String = "disconnect-entitylist.json") throws(DisconnectListError) {
        let reader = DocumentReader(file: file, publicSuffixList: .bundled)
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
        self.init(entities: entities)
    }
}
