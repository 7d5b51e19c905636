import Foundation
import TrackerlessCore

/// The JavaScript templates the renderer fills: the blocking script, the inference script, the
/// bridges and the message queue the two scripts share, as text.
///
/// The SDK carries them in ``bundled`` (generated from the repository's `JSTemplates/` by
/// `Scripts/generate-bundled-scripts.py`); ``init(directory:)`` reads a `JSTemplates/`
/// directory instead, for working on the templates without regenerating, or for a host's own
/// templates.
public struct ScriptTemplates: Sendable, Hashable {
    /// The source of `blocking.js`.
    public var blocking: String
    /// The source of `inference.js`.
    public var inference: String
    /// The source of each bridge, `bridges/<name>.js`: one function expression.
    public var bridges: [MessageBridge: String]
    /// The source of the message queue, `parts/message-queue.js`: one function expression, which
    /// the renderer puts in place of `$MESSAGE_QUEUE$` in both scripts.
    public var messageQueue: String
    /// Where the templates came from, prefixed to file names in error messages (`JSTemplates`
    /// for the bundled ones, the directory otherwise).
    public var location: String

    /// Templates from their sources; without `messageQueue`, the bundled one.
    public init(
        blocking: String, inference: String, bridges: [MessageBridge: String],
        messageQueue: String = ScriptTemplates.bundled.messageQueue, location: String = "templates"
    ) {
        self.blocking = blocking
        self.inference = inference
        self.bridges = bridges
        self.messageQueue = messageQueue
        self.location = location
    }

    /// The templates compiled into the SDK.
    public static let bundled = ScriptTemplates(
        blocking: BundledTemplates.blocking, inference: BundledTemplates.inference,
        bridges: Dictionary(uniqueKeysWithValues: BundledTemplates.bridges.compactMap { name, source in
            MessageBridge(rawValue: name).map { ($0, source) }
        }),
        messageQueue: BundledTemplates.messageQueue, location: "JSTemplates")

    /// The file of the message queue in a templates directory.
    static let messageQueuePath = "parts/message-queue.js"

    /// Reads `blocking.js`, `inference.js`, `bridges/*.js` and `parts/message-queue.js` from
    /// `directory` (a `JSTemplates/` directory); a missing bridge file leaves that bridge out, and
    /// a directory without `parts/message-queue.js` gets the bundled queue.
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
        let messageQueue = try read(Self.messageQueuePath, required: false) ?? Self.bundled.messageQueue
        self.init(blocking: blocking, inference: inference, bridges: bridges, messageQueue: messageQueue, location: base)
    }

    /// `location/name`, for messages.
    func path(of name: String) -> String { location + "/" + name }
}
