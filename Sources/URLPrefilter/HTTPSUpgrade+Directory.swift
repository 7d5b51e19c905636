import Foundation
public import TrackerDataKit
import TrackerlessCore

extension HTTPSUpgrade {
    /// The file names of a Smarter Encryption directory, as DuckDuckGo publishes them.
    public enum DirectoryFile {
        /// The Bloom filter of hosts that serve https (bloom_cpp's format).
        public static let bloomFilter = "https_bloomfilter.bin"
        /// The filter's specification: hosts, bits, error rate, SHA-256.
        public static let specification = "https_bloomfilter_spec.json"
        /// Hosts never upgraded; optional.
        public static let allowlist = "https_allowlist.json"
    }

    /// The decision of DuckDuckGo's Smarter Encryption files in `directory`:
    /// `https_bloomfilter.bin` with `https_bloomfilter_spec.json`, and `https_allowlist.json`
    /// when it is there, with the `https` feature of `privacyConfiguration`. The runtime
    /// (`ProtectionInputs.httpsFilterDirectory`) and `trackerless navigate --https-filter` read
    /// the directory through it.
    ///
    /// - Throws: ``PrefilterError/invalidFile(path:reason:)`` naming the file and the place.
    public init(directory: String, privacyConfiguration: PrivacyConfiguration?) throws(PrefilterError) {
        let filterPath = directory + "/" + DirectoryFile.bloomFilter
        let specificationPath = directory + "/" + DirectoryFile.specification
        let allowlistPath = directory + "/" + DirectoryFile.allowlist
        let specification = try HTTPSBloomFilterSpecification(parsing: try Self.read(specificationPath), file: specificationPath)
        let data = try Self.read(filterPath)
        let filter: HTTPSUpgradeBloomFilter
        do throws(BloomFilterError) {
            filter = try HTTPSUpgradeBloomFilter(data: data, specification: specification)
        } catch {
            throw .invalidFile(path: filterPath, reason: "\(error)")
        }
        var allowlist: Set<String> = []
        if FileManager.default.fileExists(atPath: allowlistPath) {
            allowlist = try Self.allowlist(parsing: try Self.read(allowlistPath), file: allowlistPath)
        }
        self.init(bloomFilter: filter, allowlist: allowlist, privacyConfiguration: privacyConfiguration)
    }

    private static func read(_ path: String) throws(PrefilterError) -> [UInt8] {
        do throws(FileError) {
            return try FileIO.read(path: path)
        } catch {
            throw .invalidFile(path: path, reason: error.description)
        }
    }
}
