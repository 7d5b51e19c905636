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

    /// Writes ``files`` into `directory` all together or not at all.
    ///
    /// The directory is created when missing (its parent must exist). Every file is first
    /// written beside its final name and synced, then all are renamed into place; when a step
    /// fails, the files already replaced are put back, so the directory holds either the old
    /// set or the new one. Other files in the directory are left alone.
    ///
    /// - Throws: ``PrefilterError/unwritable(_:)`` naming the path that failed.
    public func write(toDirectory directory: String) throws(PrefilterError) {
        do throws(FileError) {
            try DirectoryWriter.write(files, toDirectory: directory)
        } catch {
            throw .unwritable(error)
        }
    }
}
