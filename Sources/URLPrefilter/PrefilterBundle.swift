import TrackerlessCore

/// Everything a URL filter deployment needs from one entry list, as files: `prefilter.json`
/// for the app extension and the PIR server inputs beside it.
///
/// ```swift
/// let bundle = PrefilterBundle(prefilter: prefilter, pirServerInputs: inputs)
/// try bundle.write(toDirectory: "out")   // out/prefilter.json, out/input.txtpb, ...
/// ```
public struct PrefilterBundle: Sendable, Hashable {
    /// The Bloom filter and its parameters.
    public var prefilter: Prefilter
    /// The keyword dataset and the configurations of Apple's PIR tools.
    public var pirServerInputs: PIRServerInputs

    /// Bundles the outputs of the same entries.
    public init(prefilter: Prefilter, pirServerInputs: PIRServerInputs) {
        self.prefilter = prefilter
        self.pirServerInputs = pirServerInputs
    }

    /// The files by name, in the order they are written.
    public var files: [(name: String, bytes: [UInt8])] {
        [
            ("prefilter.json", prefilter.jsonBytes()),
            ("input.txtpb", pirServerInputs.keywordDatabase()),
            ("url-config.json", pirServerInputs.processingConfiguration()),
            ("service-config.json", pirServerInputs.serviceConfiguration()),
        ]
    }

    /// Writes ``files`` as one set at `directory`, all together or not at all (TrackerlessCore's
    /// `FileSet`, as every set of files the SDK writes).
    ///
    /// `directory` becomes a symbolic link to a generation directory named by the files'
    /// checksum, written whole before the link is switched to it by one rename: a reader that
    /// resolves the link once reads the old set or the new one, never a mix, and a crash at any
    /// point leaves one of them. A plain directory already there is replaced when it holds only
    /// the bundle's files and those `isOwnFile` accepts (an older write's outputs); one holding
    /// other files is refused and left as it was.
    ///
    /// - Throws: ``PrefilterError/unwritable(_:)`` naming the path that failed; `directory` is
    ///   then unchanged.
    public func write(toDirectory directory: String, isOwnFile: (String) -> Bool = { _ in false }) throws(PrefilterError) {
        let files = files
        let names = Set(files.map(\.name))
        do throws(FileError) {
            try FileSet.write(files, to: directory) { names.contains($0) || isOwnFile($0) }
        } catch {
            throw .unwritable(error)
        }
    }
}
