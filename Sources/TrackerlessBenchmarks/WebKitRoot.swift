import Foundation

/// A Debian root with its own WebKitGTK and python3 (made by `.ci/install-webkit-roots.sh`), in
/// which ``CompileHarness`` runs the harness through `Tests/WebKitTests/harness/in_webkit_root.py`
/// (bubblewrap), as the WebKit tests do with `TRACKERLESS_WEBKIT_ROOT`: that script alone checks
/// a root and knows how to run a command in it.
struct WebKitRoot: Sendable {
    /// The script that checks a root and runs a command inside it, found in the source tree as
    /// the default harness is (``BenchmarkOptions/packageRoot(filePath:)``).
    static let runner = BenchmarkOptions.packageRoot(filePath: #filePath) + "/Tests/WebKitTests/harness/in_webkit_root.py"
    /// The file the root's script writes last, naming the root's WebKitGTK (`webkit=2.44.2`).
    static let stampName = "trackerless-webkit-root"

    /// The root's directory.
    let path: String
    /// The WebKitGTK version its stamp names (`2.44.2`), or nil when the stamp has none.
    let stampedVersion: String?

    /// The root at `path`; throws the message of `in_webkit_root.py --check` when it is not a
    /// finished root or bubblewrap or its python3 is missing.
    init(path: String) throws(BenchmarkError) {
        let root = URL(fileURLWithPath: path).standardizedFileURL.path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.runner)
        process.arguments = ["--check", root]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw .usage("--webkit-root \(path): cannot run \(Self.runner): \(error)")
        }
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw .usage("--webkit-root \(path): \(message.trimmingCharacters(in: .whitespacesAndNewlines))")
        }
        self.path = root
        let stamp = FileManager.default.contents(atPath: root + "/" + Self.stampName) ?? Data()
        stampedVersion = String(decoding: stamp, as: UTF8.self).split(separator: "\n")
            .first { $0.hasPrefix("webkit=") }.map { String($0.dropFirst("webkit=".count)) }
    }

    /// `command` (the root's `/usr/bin/python3` and its arguments) run inside the root by
    /// `in_webkit_root.py`, with `readOnly` (the rule lists' directories) bound at their own
    /// paths besides what the script binds itself (the harness's directory, the directories of
    /// the arguments' files), so that the paths in the harness's input stay valid, and
    /// `writable` directories bound writable at their own paths.
    func command(_ command: [String], readOnly: [String], writable: [String] = []) -> [String] {
        var arguments = [Self.runner]
        for directory in Set(readOnly).subtracting(writable).sorted() {
            arguments += ["--ro-bind", directory]
        }
        for directory in Set(writable).sorted() {
            arguments += ["--bind", directory]
        }
        return arguments + [path] + command
    }
}
