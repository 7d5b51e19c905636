import Foundation
import TrackerDataKit
import TrackerlessCore
import URLPrefilter

/// A directory of DuckDuckGo's Smarter Encryption files, read into the ``URLPrefilter/HTTPSUpgrade``
/// decision: `https_bloomfilter.bin` with `https_bloomfilter_spec.json`, and
/// `https_allowlist.json` when it is there (the files `trackerless navigate --https-filter DIR`
/// reads).
enum HTTPSFilterDirectory {
    /// The decision of the files in `directory`, with the `https` feature of `configuration`.
    ///
    /// - Throws: ``ProtectionError/invalidInput(_:detail:)`` for ``ProtectionInput/httpsFilter``,
    ///   naming the file and the place.
    static func read(_ directory: String, configuration: PrivacyConfiguration?) throws(ProtectionError) -> HTTPSUpgrade {
        let filterPath = directory + "/https_bloomfilter.bin"
        let specificationPath = directory + "/https_bloomfilter_spec.json"
        let allowlistPath = directory + "/https_allowlist.json"
        do throws(PrefilterError) {
            let specification = try HTTPSBloomFilterSpecification(parsing: try read(specificationPath), file: specificationPath)
            let data = try read(filterPath)
            let filter: HTTPSUpgradeBloomFilter
            do throws(BloomFilterError) {
                filter = try HTTPSUpgradeBloomFilter(data: data, specification: specification)
            } catch {
                throw .invalidFile(path: filterPath, reason: "\(error)")
            }
            var allowlist: Set<String> = []
            if FileManager.default.fileExists(atPath: allowlistPath) {
                allowlist = try HTTPSUpgrade.allowlist(parsing: try read(allowlistPath), file: allowlistPath)
            }
            return HTTPSUpgrade(bloomFilter: filter, allowlist: allowlist, privacyConfiguration: configuration)
        } catch {
            throw .invalidInput(.httpsFilter, detail: "\(error)")
        }
    }

    private static func read(_ path: String) throws(PrefilterError) -> [UInt8] {
        do throws(FileError) {
            return try FileIO.read(path: path)
        } catch {
            throw .invalidFile(path: path, reason: error.description)
        }
    }
}
