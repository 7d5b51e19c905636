import Foundation
import TrackerlessCore

/// The JavaScript templates the renderer fills: the blocking script, the inference script and
/// the bridges, as text.
///
/// The SDK carries them in ``bundled`` (generated from the repository's `JSTemplates/` by
/// `Scripts/generate-bundled-scripts.py`); ``init(directory:)`` reads a `JSTemplates/`
/// directory instead, for working on the templates without regenerating.
public struct ScriptTemplates: Sendable, Hashable {
    /// The source of `blocking.js`.
    public var blocking: String
    /// The source of `inference.js`.
    public var inference: String
    /// The source of each bridge, `bridges/<name>.js`: one function expression.
    public var bridges: [MessageBridge: String]
    /// Where the templates came from, prefixed to file names in error messages (`JSTemplates`
    /// for the bundled ones, the directory otherwise).
    public var location: String

    /// Templates from their sources.
    public init(blocking: String, inference: String, bridges: [MessageBridge: String], location: String = "templates") {
        self.blocking = blocking
        self.inference = inference
        self.bridges = bridges
        self.location = location
    }

    /// The templates compiled into the SDK.
    public static let bundled = ScriptTemplates(
        blocking: BundledTemplates.blocking, inference: BundledTemplates.inference,
        bridges: Dictionary(uniqueKeysWithValues: BundledTemplates.bridges.compactMap { name, source in
            MessageBridge(rawValue: name).map { ($0, source) }
        }),
        location: "JSTemplates")

    /// Reads `blocking.js`, `inference.js` and `bridges/*.js` from `directory` (a `JSTemplates/`
    /// directory); a missing bridge file leaves that bridge out.
    ///
    /// - Throws: ``ScriptRenderError/missingTemplate(path:)`` for a missing template,
    ///   ``ScriptRenderError/invalidUTF8(file:line:)``, ``ScriptRenderError/file(_:)``.
    public init(directory: String) throws(ScriptRenderError) {
        let base = directory.hasSuffix("/") ? String(directory.dropLast()) : directory
        func read(_ name: String, required: Bool) throws(ScriptRenderError) -> String? {
            let path = base + "/" + name
            guard FileManager.default.fileExists(atPath: path) else {
                if required { throw .missingTemplate(path: path) }
                return nil
            }
            let bytes: [UInt8]
            do { bytes = try FileIO.read(path: path) } catch { throw .file(error) }
            return try TextFile.decode(bytes, file: path)
        }
        guard let blocking = try read(TemplateKind.blocking.rawValue, required: true),
            let inference = try read(TemplateKind.inference.rawValue, required: true)
        else { throw .missingTemplate(path: base) }
        var bridges: [MessageBridge: String] = [:]
        for bridge in MessageBridge.allCases {
            bridges[bridge] = try read(bridge.templatePath, required: false)
        }
        self.init(blocking: blocking, inference: inference, bridges: bridges, location: base)
    }

    /// `location/name`, for messages.
    func path(of name: String) -> String { location + "/" + name }
}
