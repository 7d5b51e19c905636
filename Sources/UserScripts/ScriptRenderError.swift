public import TrackerDataKit
public import TrackerlessCore

/// Why scripts could not be rendered, naming the template or file and the line.
public enum ScriptRenderError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A `$NAME$` placeholder the template may not use (unknown, or meant for another template).
    case unknownPlaceholder(name: String, template: String, line: Int)
    /// A placeholder the template must use and does not.
    case missingPlaceholder(name: String, template: String)
    /// Code to be inserted verbatim (a bridge, a surrogate) that would break out of a script
    /// element or an ES2017 parser: `</script`, U+2028, U+2029.
    case unsafeCode(file: String, line: Int, reason: String)
    /// Surrogates whose source could break out of the blocking script or of the function it is
    /// wrapped in (``SurrogateLibrary/refused``), each with its file and line.
    case refusedSurrogates([InputWarning])
    /// A file that is not valid UTF-8, with the line of the first bad byte.
    case invalidUTF8(file: String, line: Int)
    /// A file that could not be read.
    case file(FileError)
    /// A template file or directory that is not there.
    case missingTemplate(path: String)
    /// A setting out of its range.
    case invalidSetting(String)
    /// Scripts rendered ahead of time that do not match their manifest, or a manifest that is not
    /// a render's (``RenderedScripts/init(blockingScript:inferenceScript:manifest:)``).
    case buildOutput(String)

    /// The place and the problem, for example `JSTemplates/blocking.js: line 12: unknown placeholder $DATA$`.
    public var description: String {
        switch self {
        case .unknownPlaceholder(let name, let template, let line):
            "\(template): line \(line): unknown placeholder $\(name)$ (not one this template takes)"
        case .missingPlaceholder(let name, let template):
            "\(template): the template has no $\(name)$ placeholder"
        case .unsafeCode(let file, let line, let reason):
            "\(file): line \(line): \(reason)"
        case .refusedSurrogates(let refusals):
            "surrogates refused (code that could break out of the blocking script):\n"
                + refusals.map { "  \($0)" }.joined(separator: "\n")
        case .invalidUTF8(let file, let line):
            "\(file): line \(line): not valid UTF-8"
        case .file(let error):
            error.description
        case .missingTemplate(let path):
            "\(path): template not found"
        case .invalidSetting(let message):
            "invalid setting: \(message)"
        case .buildOutput(let message):
            "rendered scripts: \(message)"
        }
    }
}
