import Foundation
public import TrackerDataKit
import TrackerlessCore

/// The surrogates the renderer embeds in the blocking script, checked to be safe to embed.
///
/// Read from a surrogates.txt file (DuckDuckGo's format) or from a directory of `<name>.js`
/// files whose first line is the surrogates.txt header as a comment:
///
/// ```js
/// // google-analytics.com/analytics.js application/javascript
/// (function () { 'use strict'; … })();
/// ```
///
/// A surrogate that cannot be embedded is skipped with a warning naming its file and line: a
/// malformed header, a file that is not UTF-8, `</script` (any case), U+2028 or U+2029 in the
/// source, or a source that does not stay inside the function it is wrapped in (a bracket it
/// closes without opening, one it leaves open; see `CodeNesting`). The unsafe ones are also in
/// ``refused``, which a tool rendering ahead of time treats as an error.
/// ``bundled`` holds the project's own surrogates (`Surrogates/` in the repository).
public struct SurrogateLibrary: Sendable, Hashable {
    /// The surrogates, in file order (directories: by file name).
    public private(set) var surrogates: Surrogates
    /// What was skipped, with file and line.
    public private(set) var warnings: [InputWarning]
    /// The surrogates skipped because their source could break out of the script element or of
    /// the function it is wrapped in, with file and line (they are in ``warnings`` too).
    public private(set) var refused: [InputWarning] = []

    /// The project's surrogates, compiled into the SDK.
    public static let bundled = SurrogateLibrary(Surrogates.bundled, file: "Surrogates/")

    /// A library of `surrogates`, skipping (with a warning) any that cannot be embedded safely.
    public init(_ surrogates: Surrogates, file: String? = nil) {
        self.surrogates = Surrogates()
        warnings = surrogates.warnings
        var kept: [Surrogates.Surrogate] = []
        for surrogate in surrogates.surrogates {
            if let problem = UnsafeCode.firstProblem(inFunctionBody: surrogate.source.utf8) {
                let warning = InputWarning(
                    file: file, message: "surrogate \(surrogate.name): line \(problem.line) of its source: \(problem.reason); skipped")
                warnings.append(warning)
                refused.append(warning)
            } else {
                kept.append(surrogate)
            }
        }
        self.surrogates = Surrogates(kept)
    }

    /// Reads a surrogates.txt file's text (`file` names it in warnings).
    public init(index bytes: [UInt8], file: String) {
        // Lines that are not UTF-8 are dropped and reported; the blocks around them still parse.
        var text = ""
        var badLines: [Int] = []
        var lineNumber = 0
        for line in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            lineNumber += 1
            if lineNumber > 1 { text += "\n" }
            if let decoded = String(validatingUTF8Bytes: line) {
                text += decoded
            } else {
                badLines.append(lineNumber)
                text += Self.invalidLineStandIn
            }
        }
        let parsed = Surrogates(parsing: text, file: file)
        var warnings = parsed.warnings
        var kept: [Surrogates.Surrogate] = []
        let headerLines = Self.headerLines(of: text)
        for surrogate in parsed.surrogates {
            let header = headerLines[surrogate.path + " " + surrogate.contentType] ?? 0
            if surrogate.source.contains(Self.invalidLineStandIn) {
                let line = badLines.first(where: { $0 > header }) ?? header
                warnings.append(InputWarning(file: file, line: line, message: "not valid UTF-8; surrogate \(surrogate.name) skipped"))
            } else if let problem = UnsafeCode.firstProblem(inFunctionBody: surrogate.source.utf8) {
                let warning = InputWarning(
                    file: file, line: header + problem.line, message: "\(problem.reason); surrogate \(surrogate.name) skipped")
                warnings.append(warning)
                refused.append(warning)
            } else {
                kept.append(surrogate)
            }
        }
        for line in badLines where !warnings.contains(where: { $0.line == line }) {
            warnings.append(InputWarning(file: file, line: line, message: "not valid UTF-8; line skipped"))
        }
        self.surrogates = Surrogates(kept)
        self.warnings = warnings.sorted { ($0.line ?? 0) < ($1.line ?? 0) }
        refused.sort { ($0.line ?? 0) < ($1.line ?? 0) }
    }

    /// Reads surrogate script files: each `<name>.js` starts with `// <domain>/<name> <content type>`.
    /// Files are taken in the order given.
    public init(scriptFiles: [(path: String, text: String)]) {
        var kept: [Surrogates.Surrogate] = []
        var warnings: [InputWarning] = []
        var refused: [InputWarning] = []
        for (path, text) in scriptFiles {
            switch Self.parseScriptFile(path: path, text: text) {
            case .surrogate(let surrogate): kept.append(surrogate)
            case .skipped(let warning): warnings.append(warning)
            case .refused(let warning):
                warnings.append(warning)
                refused.append(warning)
            }
        }
        self.surrogates = Surrogates(kept)
        self.warnings = warnings
        self.refused = refused
    }

    /// Reads a surrogates.txt file, or a directory of `<name>.js` surrogate files (other files,
    /// such as a README, are ignored).
    ///
    /// - Throws: ``ScriptRenderError/file(_:)`` when the file or directory cannot be read.
    public init(contentsOf path: String) throws(ScriptRenderError) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw .file(FileError(path: path, reason: "No such file or directory"))
        }
        guard isDirectory.boolValue else {
            do { self.init(index: try FileIO.read(path: path), file: path) } catch { throw .file(error) }
            return
        }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: path).filter { $0.hasSuffix(".js") }.sorted()
        } catch {
            throw .file(FileError(path: path, reason: "cannot list the directory: \(error.localizedDescription)"))
        }
        let base = path.hasSuffix("/") ? String(path.dropLast()) : path
        var files: [(path: String, text: String)] = []
        var unreadable: [InputWarning] = []
        for name in names {
            let file = base + "/" + name
            do {
                files.append((file, try TextFile.decode(try FileIO.read(path: file), file: file)))
            } catch let error as FileError {
                throw .file(error)
            } catch let error as ScriptRenderError {
                if case .invalidUTF8(let file, let line) = error {
                    unreadable.append(InputWarning(file: file, line: line, message: "not valid UTF-8; surrogate skipped"))
                } else {
                    throw error
                }
            } catch {
                throw .file(FileError(path: file, reason: "\(error)"))
            }
        }
        self.init(scriptFiles: files)
        warnings = (warnings + unreadable).sorted { ($0.file ?? "") < ($1.file ?? "") }
    }

    /// The surrogates as a surrogates.txt file: a comment line, then for each surrogate its
    /// header line and source, with a blank line between surrogates.
    ///
    /// A blank line separates surrogates in that format, so blank lines of a source are left out.
    public var index: String {
        var blocks: [String] = ["# Surrogates: scripts served in place of blocked tracker scripts (written by trackerless)."]
        for surrogate in surrogates.surrogates {
            let lines = surrogate.source.split(separator: "\n", omittingEmptySubsequences: false)
                .filter { !$0.allSatisfy { $0 == " " || $0 == "\t" || $0 == "\r" } }
            blocks.append(([surrogate.path + " " + surrogate.contentType] + lines.map(String.init)).joined(separator: "\n"))
        }
        return blocks.joined(separator: "\n\n") + "\n"
    }

    /// The `$SURROGATES$` object literal: `{"name": function () {\n…source…\n}, …}` in library order.
    var objectLiteral: [UInt8] {
        var output: [UInt8] = Array("{".utf8)
        for (index, surrogate) in surrogates.surrogates.enumerated() {
            var key = JSONWriter(capacity: surrogate.name.utf8.count + 2)
            key.writeString(surrogate.name)
            output.append(contentsOf: (index == 0 ? "\n" : ",\n").utf8)
            ScriptContextEscaping.appendJSON(String(decoding: key.bytes, as: UTF8.self), to: &output)
            output.append(contentsOf: ": function () {\n".utf8)
            output.append(contentsOf: surrogate.source.utf8)
            output.append(contentsOf: "\n}".utf8)
        }
        output.append(contentsOf: (surrogates.surrogates.isEmpty ? "}" : "\n}").utf8)
        return output
    }

    // MARK: Reading

    /// Stands in for a line that is not UTF-8 until its surrogate is dropped.
    private static let invalidLineStandIn = "\u{FFFF}invalid UTF-8\u{FFFF}"

    /// The line number of each header line (`path content-type`) of a surrogates.txt text.
    private static func headerLines(of text: String) -> [String: Int] {
        var lines: [String: Int] = [:]
        var isInBlock = false
        var number = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            number += 1
            let trimmed = line.hasSuffix("\r") ? line.dropLast() : line
            if trimmed.allSatisfy({ $0 == " " || $0 == "\t" }) {
                isInBlock = false
            } else if !isInBlock && !trimmed.hasPrefix("#") {
                isInBlock = true
                let tokens = trimmed.split(whereSeparator: { $0 == " " || $0 == "\t" })
                if tokens.count == 2 { lines[tokens[0] + " " + tokens[1]] = number }
            }
        }
        return lines
    }

    private enum ScriptFile {
        case surrogate(Surrogates.Surrogate)
        case skipped(InputWarning)
        /// Skipped because its source is unsafe to embed.
        case refused(InputWarning)
    }

    private static func parseScriptFile(path: String, text: String) -> ScriptFile {
        let fileName = path.split(separator: "/").last.map(String.init) ?? path
        let firstLineEnd = text.firstIndex(of: "\n") ?? text.endIndex
        var header = text[..<firstLineEnd]
        if header.hasSuffix("\r") { header = header.dropLast() }
        let tokens = header.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard tokens.count == 3, tokens[0] == "//", tokens[1].contains("/"), tokens[2].contains("/"),
            let name = tokens[1].split(separator: "/").last
        else {
            return .skipped(InputWarning(
                file: path, line: 1,
                message: "expected a first line \"// <domain>/<name> <content type>\" (the surrogates.txt header); surrogate skipped"))
        }
        guard name + ".js" == fileName || name == fileName else {
            return .skipped(InputWarning(
                file: path, line: 1, message: "the header names \(name), but the file is \(fileName); surrogate skipped"))
        }
        var source = firstLineEnd < text.endIndex ? text[text.index(after: firstLineEnd)...] : ""
        while let last = source.last, last == "\n" || last == "\r" || last == "\r\n" { source = source.dropLast() }
        if let problem = UnsafeCode.firstProblem(inFunctionBody: source.utf8) {
            return .refused(InputWarning(file: path, line: problem.line + 1, message: "\(problem.reason); surrogate skipped"))
        }
        return .surrogate(Surrogates.Surrogate(
            name: String(name), path: String(tokens[1]), contentType: String(tokens[2]), source: String(source)))
    }
}
