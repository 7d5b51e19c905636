public import TrackerDataKit
public import TrackerlessCore

/// Fills the JavaScript templates with the tracker data, the surrogates, the settings and a
/// secret: the scripts a host injects into its web views.
///
/// ```swift
/// let tds = try TrackerData(contentsOfFile: "tds.json")
/// let surrogates = SurrogateLibrary.bundled
/// let compact = CompactTrackerData(trackerData: tds, surrogates: surrogates.surrogates)
/// let renderer = try ScriptRenderer(settings: ScriptSettings(bridge: .webkit))
/// let scripts = try renderer.render(trackerData: compact, surrogates: surrogates)
/// scripts.blocking.source      // inject in the page world at document start
/// scripts.inference.source     // inject in an isolated world at document start
/// scripts.secret               // accept only messages carrying it
/// ```
///
/// Each placeholder is filled by its kind: JSON (`$TRACKER_DATA$`, `$SETTINGS$`, `$SECRET$`) is
/// escaped for script context (`<`, `>`, U+2028, U+2029 as `\u` escapes); code (`$BRIDGE$`,
/// `$MESSAGE_QUEUE$`, `$SURROGATES$`) goes in verbatim, after checking it holds no `</script` and
/// no U+2028/U+2029.
/// The same inputs and secret always give the same bytes.
public struct ScriptRenderer: Sendable {
    /// The settings written into the scripts.
    public let settings: ScriptSettings
    private let blockingTemplate: ParsedTemplate
    private let inferenceTemplate: ParsedTemplate
    private let bridgeCode: [UInt8]
    private let messageQueueCode: [UInt8]
    private let settingsJSON: [UInt8]

    /// A renderer for `templates` (the bundled ones by default) and `settings`; the templates
    /// are checked here, once.
    ///
    /// - Throws: ``ScriptRenderError`` naming the template file and line of an unknown or
    ///   missing placeholder or unsafe text (in a template, the bridge or the message queue), a
    ///   missing bridge, or a setting out of range.
    public init(templates: ScriptTemplates = .bundled, settings: ScriptSettings = ScriptSettings()) throws(ScriptRenderError) {
        try settings.validate()
        self.settings = settings
        blockingTemplate = try ParsedTemplate(
            templates.blocking, kind: .blocking, file: templates.path(of: TemplateKind.blocking.rawValue))
        inferenceTemplate = try ParsedTemplate(
            templates.inference, kind: .inference, file: templates.path(of: TemplateKind.inference.rawValue))
        let bridgePath = templates.path(of: settings.bridge.templatePath)
        guard let bridge = templates.bridges[settings.bridge] else { throw .missingTemplate(path: bridgePath) }
        bridgeCode = Array(bridge.trimmingTrailingWhitespace.utf8)
        if let problem = UnsafeCode.firstProblem(inFunctionBody: bridgeCode) {
            throw .unsafeCode(file: bridgePath, line: problem.line, reason: problem.reason)
        }
        messageQueueCode = Array(templates.messageQueue.trimmingTrailingWhitespace.utf8)
        if let problem = UnsafeCode.firstProblem(inFunctionBody: messageQueueCode) {
            throw .unsafeCode(
                file: templates.path(of: ScriptTemplates.messageQueuePath), line: problem.line, reason: problem.reason)
        }
        var json: [UInt8] = []
        ScriptContextEscaping.appendJSON(settings.json.jsonString(), to: &json)
        settingsJSON = json
    }

    /// Renders both scripts.
    ///
    /// - Parameters:
    ///   - trackerData: the blocking script's data, built for the same surrogates.
    ///   - surrogates: the surrogates the blocking script can run in place of a tracker script.
    ///   - secret: the secret the messages carry; random by default. Pass `ScriptSecret.marker`
    ///     to render ahead of time and put a secret in at launch with ``RenderedScripts/withSecret(_:)``.
    /// - Returns: the scripts, with the warnings of `trackerData` and `surrogates`.
    public func render(
        trackerData: CompactTrackerData, surrogates: SurrogateLibrary, secret: ScriptSecret = .random()
    ) -> RenderedScripts {
        var trackerJSON: [UInt8] = []
        ScriptContextEscaping.appendJSON(trackerData.json, to: &trackerJSON)
        let values = Values(
            trackerData: trackerJSON, surrogates: surrogates.objectLiteral, settings: settingsJSON, bridge: bridgeCode,
            messageQueue: messageQueueCode)
        return RenderedScripts(
            blocking: fill(blockingTemplate, name: TemplateKind.blocking.rawValue, with: values, secret: secret),
            inference: fill(inferenceTemplate, name: TemplateKind.inference.rawValue, with: values, secret: secret),
            warnings: surrogates.warnings + trackerData.warnings, settings: settings)
    }

    /// Builds the compact tracker data for the surrogates and renders both scripts.
    ///
    /// - Parameters:
    ///   - trackerData: the Tracker Radar blocklist.
    ///   - privacyConfiguration: the privacy configuration; nil for blocking everywhere.
    ///   - userAllowlist: sites where the user turned protection off.
    ///   - surrogates: the surrogates; the bundled ones by default.
    ///   - secret: the secret the messages carry; random by default.
    public func render(
        trackerData: TrackerData, privacyConfiguration: PrivacyConfiguration? = nil,
        userAllowlist: UserAllowlist = UserAllowlist(), surrogates: SurrogateLibrary = .bundled,
        secret: ScriptSecret = .random()
    ) -> RenderedScripts {
        // Without blocking in the script, the data holds only the trackers a surrogate can stand in for.
        let compact = CompactTrackerData(
            trackerData: trackerData, surrogates: surrogates.surrogates,
            privacyConfiguration: privacyConfiguration, userAllowlist: userAllowlist,
            scope: settings.blockInScript || settings.blockKeepalive ? .all : .surrogateTrackers)
        return render(trackerData: compact, surrogates: surrogates, secret: secret)
    }

    /// The text of each placeholder, ready to copy.
    private struct Values {
        var trackerData: [UInt8]
        var surrogates: [UInt8]
        var settings: [UInt8]
        var bridge: [UInt8]
        var messageQueue: [UInt8]
    }

    private func fill(_ template: ParsedTemplate, name: String, with values: Values, secret: ScriptSecret) -> RenderedScript {
        var sizes = RenderedScript.Sizes()
        var output: [UInt8] = []
        var secretOffsets: [Int] = []
        output.reserveCapacity(template.bytes.count + values.trackerData.count + values.surrogates.count + 4096)
        for piece in template.pieces {
            let start = output.count
            switch piece {
            case .text(let range):
                output.append(contentsOf: template.bytes[range])
                sizes.template += range.count
            case .placeholder(.trackerData):
                output.append(contentsOf: values.trackerData)
                sizes.trackerData += values.trackerData.count
            case .placeholder(.surrogates):
                output.append(contentsOf: values.surrogates)
                sizes.surrogates += values.surrogates.count
            case .placeholder(.settings):
                output.append(contentsOf: values.settings)
                sizes.settings += values.settings.count
            case .placeholder(.secret):
                // The marker's place; RenderedScript writes the secret there after hashing.
                output.append(UInt8(ascii: "\""))
                secretOffsets.append(output.count)
                output.append(contentsOf: ScriptSecret.marker.value.utf8)
                output.append(UInt8(ascii: "\""))
                sizes.settings += output.count - start
            case .placeholder(.bridge):
                output.append(contentsOf: values.bridge)
                sizes.bridge += values.bridge.count
            case .placeholder(.messageQueue):
                // Template code, shared by both scripts.
                output.append(contentsOf: values.messageQueue)
                sizes.template += values.messageQueue.count
            }
        }
        return RenderedScript(name: name, bytes: output, secret: secret, sizes: sizes, secretOffsets: secretOffsets)
    }
}

extension String {
    /// Without trailing spaces and line breaks, so that a bridge's or the message queue's final
    /// newline does not land inside the template's expression.
    var trimmingTrailingWhitespace: String {
        var text = Substring(self)
        while let last = text.last, last.isWhitespace { text = text.dropLast() }
        return String(text)
    }
}
