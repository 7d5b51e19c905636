public import ContentRuleList
public import TrackerlessCore

// The compiled file: a header (signature, format version, payload length, payload checksum),
// then the program's tables one after the other, each array as a count and its raw
// little-endian elements. Loading copies the arrays out and checks every index they hold, so a
// file that passes the checksum but was not written by us still cannot make a lookup go out of
// bounds. The automata of patterns that no table answers (a minority in real lists) are rebuilt
// from their pattern text; the JSON of the rule lists is never read again.

extension RuleEngine {
    /// The engine in Trackerless's compiled format: versioned, checksummed, loadable by
    /// ``init(compiled:publicSuffixList:target:)`` without parsing the rule lists' JSON.
    public func compiled() -> [UInt8] {
        var writer = CompiledWriter()
        program.write(to: &writer)
        return CompiledFormat.wrap(writer.bytes)
    }

    /// Loads an engine from ``compiled()`` output.
    ///
    /// - Throws: ``CompiledEngineError`` for data that is not a compiled engine, from another
    ///   format version, truncated or corrupt; the caller can compile the rule lists again.
    ///
    /// `target` is the WebKit whose evaluation to reproduce, as for ``init(ruleLists:publicSuffixList:target:)``.
    public init(
        compiled bytes: [UInt8], publicSuffixList: PublicSuffixList = .bundled, target: WebKitTarget = .newest
    ) throws(CompiledEngineError) {
        let range = try CompiledFormat.payloadRange(bytes)
        let program = try bytes.withUnsafeBufferPointer { buffer throws(CompiledEngineError) -> Program in
            var reader = CompiledReader(UnsafeBufferPointer(rebasing: buffer[range]))
            return try Program.read(from: &reader)
        }
        self.init(program: program, publicSuffixList: publicSuffixList, evaluation: Evaluation(target))
    }
}
