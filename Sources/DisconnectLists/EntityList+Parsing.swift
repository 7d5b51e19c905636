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
        let root = try reader.root(of: bytes)
        var entities: [Entity] = []
        for (name, node) in try reader.decoding({ () throws(JSONDecodingError) in try root.required("entities").members() }) {
            let properties = try reader.siteDomains(
                reader.decoding({ () throws(JSONDecodingError) in try node.required("properties") }))
            let resources = try reader.siteDomains(
                reader.decoding({ () throws(JSONDecodingError) in try node.required("resources") }))
            entities.append(Entity(name: name, properties: properties, resources: resources))
        }
        self.init(entities: entities)
    }
}
