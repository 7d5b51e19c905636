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
        let entities = try reader.read(bytes) { (json) throws(JSONReadError) in
            try reader.requiredMember("entities", &json, at: .root) { (json) throws(JSONReadError) in
                try Self.entities(&json, reader: reader)
            }
        }
        self.init(entities: entities)
    }

    /// The entities of the `entities` object, in document order.
    private static func entities(_ json: inout JSONReader, reader: DocumentReader) throws(JSONReadError) -> [Entity] {
        let entitiesPath = JSONPath.root.appending(key: "entities")
        var entities: [Entity] = []
        var members = try json.enterObject(at: entitiesPath)
        while let key = try json.nextKey(in: &members) {
            let name = key.string
            let path = entitiesPath.appending(key: name)
            // Read in document order, checked in the order of lookups: the last of duplicates
            // counts, and `properties` is checked before `resources`.
            var properties: Result<[String], JSONReadError>?
            var resources: Result<[String], JSONReadError>?
            var fields = try json.enterObject(at: path)
            while let field = try json.nextKey(in: &fields) {
                switch field {
                case "properties":
                    properties = try json.readResult { (json) throws(JSONReadError) in
                        try reader.siteDomains(&json, at: path.appending(key: "properties"))
                    }
                case "resources":
                    resources = try json.readResult { (json) throws(JSONReadError) in
                        try reader.siteDomains(&json, at: path.appending(key: "resources"))
                    }
                default:
                    try json.skipValue()
                }
            }
            guard let properties else { throw reader.missing("properties", at: path) }
            let propertyDomains = try properties.get()
            guard let resources else { throw reader.missing("resources", at: path) }
            entities.append(Entity(name: name, properties: propertyDomains, resources: try resources.get()))
        }
        return entities
    }
}
