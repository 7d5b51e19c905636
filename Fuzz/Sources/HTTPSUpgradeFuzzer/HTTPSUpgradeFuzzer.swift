import Foundation
import FuzzSupport
import URLPrefilter

/// DuckDuckGo's HTTPS-upgrade (Smarter Encryption) downloads: the first byte chooses the file,
/// the rest is its contents. 0: the Bloom filter's specification JSON; 1: a jsbloom JSON filter
/// (`https_negative_bloomfilter`); 2: the allowlist JSON (`{"data": [hosts]}`); 3: a `.bin`
/// filter, whose first four bytes give its bit count (little-endian) and the next two its entry
/// count, as a specification would.
///
/// Invariants: reading never traps; what is read writes back to JSON that reads the same; a read
/// filter answers the sample hosts, and `HTTPSUpgrade` decides the sample URLs with it.
@_cdecl("LLVMFuzzerTestOneInput")
public func httpsUpgradeFuzzer(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    guard let (format, bytes) = FuzzInput.format(start, count, of: 4) else { return 0 }
    switch format {
    case 0:
        guard let specification = try? HTTPSBloomFilterSpecification(parsing: bytes) else { return 0 }
        let again = try? HTTPSBloomFilterSpecification(parsing: specification.jsonBytes())
        require(again == specification, "the specification writes JSON that reads as \(String(describing: again))")
    case 1:
        guard let filter = try? JSBloomFilter(parsing: bytes) else { return 0 }
        let again = try? JSBloomFilter(parsing: filter.jsonBytes())
        require(again == filter, "the filter writes JSON that reads as another filter")
        let upgrade = HTTPSUpgrade(bloomFilter: HTTPSFixture.filter, negativeBloomFilter: filter)
        decideSamples(upgrade)
    case 2:
        guard let allowlist = try? HTTPSUpgrade.allowlist(parsing: bytes) else { return 0 }
        decideSamples(HTTPSUpgrade(bloomFilter: HTTPSFixture.filter, allowlist: allowlist))
    default:
        guard bytes.count >= 6 else { return 0 }
        let bitCount = bytes[0..<4].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        let entryCount = Int(bytes[4]) | Int(bytes[5]) << 8
        guard let filter = try? HTTPSUpgradeBloomFilter(data: Array(bytes[6...]), bitCount: bitCount, entryCount: entryCount)
        else { return 0 }
        decideSamples(HTTPSUpgrade(bloomFilter: filter))
    }
    return 0
}

private func decideSamples(_ upgrade: HTTPSUpgrade) {
    for url in FuzzRequests.urls {
        let insecure = url.replacingOccurrences(of: "https://", with: "http://")
        for site in FuzzRequests.sites {
            _ = upgrade.upgradedURL(forRequestURL: insecure, topURL: site)
        }
        _ = upgrade.knowledge(ofHost: FuzzRequests.host(of: url))
    }
}

private enum HTTPSFixture {
    /// A filter of two hosts.
    static let filter: HTTPSUpgradeBloomFilter = {
        guard var filter = try? HTTPSUpgradeBloomFilter(entryCount: 16, falsePositiveRate: 0.001) else { fatalError("fixture") }
        filter.insert("site.example")
        filter.insert("cdn.example")
        return filter
    }()
}
