import Foundation
public import TrackerlessCore

/// The inputs of Firefox's generator read from disk: the category lists and the entity list.
///
/// ```swift
/// let inputs = try FirefoxListInputs(lists: "shavar-prod-lists", entities: nil)
/// let builder = FirefoxRuleListBuilder(categoryLists: inputs.categoryLists, entityList: inputs.entityList)
/// ```
public struct FirefoxListInputs: Sendable {
    /// The tracker domains of each category.
    public var categoryLists: CategoryLists
    /// The entity list.
    public var entityList: EntityList
    /// Where the category lists came from: the files read, for messages.
    public var listFiles: [String]

    /// Reads the inputs.
    ///
    /// - Parameters:
    ///   - lists: `disconnect-blacklist.json` itself; or a directory holding the six normalized
    ///     lists Firefox reads (`ads-track-digest256.json`, …), directly or in `normalized-lists/`;
    ///     or a directory holding `disconnect-blacklist.json`. The normalized lists win when a
    ///     directory has both, as in Firefox.
    ///   - entities: `disconnect-entitylist.json`; nil for the one beside the lists (in the
    ///     directory, or beside the file).
    ///   - publicSuffixList: tells public suffixes, which are rejected as tracker domains.
    /// - Throws: ``DisconnectListError`` naming the file that is missing or wrong.
    public init(lists: String, entities: String?, publicSuffixList: PublicSuffixList = .bundled) throws(DisconnectListError) {
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: lists, isDirectory: &isDirectory)
        guard exists else {
            throw DisconnectListError(file: lists, path: nil, kind: .unreadable, reason: "no such file or directory")
        }
        let folder = isDirectory.boolValue ? lists : (lists as NSString).deletingLastPathComponent
        if isDirectory.boolValue, let normalized = Self.normalizedListsFolder(in: lists) {
            var domains: [FirefoxCategory: [TrackerDomain]] = [:]
            var files: [String] = []
            for category in FirefoxCategory.listCategories {
                guard let name = category.normalizedListName else { continue }  // every list category has one
                let file = (normalized as NSString).appendingPathComponent(name + ".json")
                domains[category] = try CategoryLists.parseNormalizedList(
                    Self.read(file), file: file, publicSuffixList: publicSuffixList)
                files.append(file)
            }
            categoryLists = CategoryLists(domains: domains)
            listFiles = files
        } else {
            let file = isDirectory.boolValue ? (lists as NSString).appendingPathComponent("disconnect-blacklist.json") : lists
            categoryLists = CategoryLists(
                try DisconnectList(parsing: Self.read(file), file: file, publicSuffixList: publicSuffixList))
            listFiles = [file]
        }
        let entityFile = entities ?? (folder as NSString).appendingPathComponent("disconnect-entitylist.json")
        entityList = try EntityList(parsing: Self.read(entityFile), file: entityFile)
    }

    /// The directory holding `ads-track-digest256.json`: `directory` or its `normalized-lists`.
    private static func normalizedListsFolder(in directory: String) -> String? {
        guard let list = FirefoxCategory.advertising.normalizedListName else { return nil }
        let marker = list + ".json"
        for candidate in [directory, (directory as NSString).appendingPathComponent("normalized-lists")] {
            if FileManager.default.fileExists(atPath: (candidate as NSString).appendingPathComponent(marker)) {
                return candidate
            }
        }
        return nil
    }

    private static func read(_ path: String) throws(DisconnectListError) -> [UInt8] {
        do throws(FileError) {
            return try FileIO.read(path: path)
        } catch {
            throw DisconnectListError(file: path, path: nil, kind: .unreadable, reason: error.reason)
        }
    }
}
