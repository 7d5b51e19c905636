import Foundation

/// Runs Node.js on a script file, when Node is installed: the rendered scripts must parse and
/// evaluate in a JavaScript engine, not only look right.
enum NodeRunner {
    /// `node` on PATH, or nil.
    static let executable: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = String(directory) + "/node"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }()

    static var isAvailable: Bool { executable != nil }

    struct Result {
        var status: Int32
        var output: String
        var error: String
    }

    /// A Node program that evaluates the rendered blocking script `blocking` in a fresh context
    /// on https://news.example/, with its test hook's functions in `api`, then runs `body`.
    static func withBlockingScript(_ blocking: String, _ body: String) -> String {
        """
        'use strict';
        const vm = require('node:vm');
        const fs = require('node:fs');
        const context = vm.createContext({ URL, console, setTimeout, clearTimeout, location: { href: 'https://news.example/' } });
        const global = vm.runInContext('this', context);
        global.window = global; global.top = global; global.self = global;
        let api = null;
        global.__trackerlessTestHook = (value) => { api = value; };
        vm.runInContext(\(jsonString(blocking)), context);

        """ + body
    }

    /// `text` as a JSON (and JavaScript) string literal.
    private static func jsonString(_ text: String) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: [text])) ?? Data("[\"\"]".utf8)
        return String(decoding: data.dropFirst().dropLast(), as: UTF8.self)
    }

    /// `node arguments... file`, with `source` written to a temporary file.
    static func run(_ source: String, arguments: [String] = []) throws -> Result {
        guard let executable else { return Result(status: -1, output: "", error: "node not found") }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("trackerless-node-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = directory.appendingPathComponent("script.js")
        let output = directory.appendingPathComponent("stdout")
        let error = directory.appendingPathComponent("stderr")
        try Data(source.utf8).write(to: script)
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        _ = FileManager.default.createFile(atPath: error.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments + [script.path]
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = try FileHandle(forWritingTo: error)
        try process.run()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus,
            output: String(decoding: try Data(contentsOf: output), as: UTF8.self),
            error: String(decoding: try Data(contentsOf: error), as: UTF8.self))
    }
}
