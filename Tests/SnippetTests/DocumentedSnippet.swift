/// One ```swift block of a document (README.md, a DocC article), as `Scripts/generate-snippet-tests.py`
/// found it, and how it is compiled.
struct DocumentedSnippet: Sendable, Equatable {
    enum Kind: Sendable, Equatable {
        /// The body of a throwing function in a file of its own (`Snippets/<document>_<n>.swift`).
        case body
        /// The same, compiled only where Apple's WebKit exists.
        case apple
        /// Imports `TrackerlessWebKitGTK`: compiled with the tests of the WebKitGTK package
        /// (`Integrations/WebKitGTK/Tests/TrackerlessWebKitGTKTests/Snippets`).
        case webkitgtk
        /// A host's whole `Package.swift`: loaded by SwiftPM beside a link to this package.
        case manifest
        /// Uses `TrackerlessGenerated`: must appear verbatim in the HostApp example, which the
        /// build-plugin tests build.
        case plugin
    }

    /// The document's path from the package root.
    var document: String
    /// The line of the opening fence.
    var line: Int
    var kind: Kind
    /// The block's text, without its fences.
    var text: String
}
