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
        let allowlistPath = directory + "/" + DirectoryFile.allowlist
        try self.init(
            bloomFilterFile: directory + "/" + DirectoryFile.bloomFilter,
            specificationFile: directory + "/" + DirectoryFile.specification,
            allowlistFile: FileManager.default.fileExists(atPath: allowlistPath) ? allowlistPath : nil,
            privacyConfiguration: privacyConfiguration)
    }

    /// The decision of DuckDuckGo's Smarter Encryption files, each named: the Bloom filter
    /// (`https_bloomfilter.bin`) with its specification (`https_bloomfilter_spec.json`), and the
    /// allowlist of its false positives (`https_allowlist.json`) if given, with the `https`
    /// feature of `privacyConfiguration`. ``init(directory:privacyConfiguration:)`` and
    /// `trackerless https` read the files through it.
    ///
    /// - Throws: ``PrefilterError/invalidFile(path:reason:)`` naming the file and the place.
    public init(
        bloomFilterFile filterPath: String, specificationFile specificationPath: String, allowlistFile allowlistPath: String?,
        privacyConfiguration: PrivacyConfiguration?
    ) throws(PrefilterError) {
        let specification = try HTTPSBloomFilterSpecification(parsing: try Self.read(specificationPath), file: specificationPath)
        let data = try Self.read(filterPath)
        let filter: HTTPSUpgradeBloomFilter
        do throws(BloomFilterError) {
            filter = try HTTPSUpgradeBloomFilter(data: data, specification: specification)
        } catch {
            throw .invalidFile(path: filterPath, reason: "\(error)")
        }
        let allowlist = try allowlistPath.map { path throws(PrefilterError) in try Self.allowlist(parsing: try Self.read(path), file: path) }
        self.init(bloomFilter: filter, allowlist: allowlist ?? [], privacyConfiguration: privacyConfiguration)
    }

    /// The bytes of `path`; the error names the file once (``FileError``'s reason alone).
    static func read(_ path: String) throws(PrefilterError) -> [UInt8] {
        do throws(FileError) {
            return try FileIO.read(path: path)
        } catch {
            throw .invalidFile(path: path, reason: error.reason)
        }
    }
}
