import Foundation
import Testing

/// A reader finds a type by its file name: in every module of the package (each folder of
/// `Sources/`) and of the WebKitGTK integration (`Integrations/WebKitGTK/Sources/`, read from here
/// so that it is checked where WebKitGTK is not installed), each file declares at most one
/// top-level type, and a file declaring one is named after it (`Type.swift`, or
/// `Type+Concern.swift`). A file declaring none holds extensions by concern (`Type+Concern.swift`)
/// or functions (the C API's `tl_*`, an executable's `main.swift`).
///
/// Two kinds of type are not looked up by name, so they do not count:
/// - a nested type (an error enum or a cursor inside the type it serves): it is found through
///   the type that encloses it;
/// - a file-private helper (`private struct`, `private final class`): the compiler keeps every
///   other file from using it, so it is read beside its one user.
/// Every other type (public, package or internal) is one other files may use, and has its own
/// file; there is no list of exempt files.
@Suite struct SourceLayoutTests {
    /// The repository: Tests/RuleEngineTests/SourceLayoutTests.swift, three up.
    static let root = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let sources = root.appendingPathComponent("Sources")

    /// The folders whose modules are checked, relative to the repository.
    static let sourceFolders = ["Sources", "Integrations/WebKitGTK/Sources"]

    /// Every Swift module of those folders, as a path relative to the repository (a system
    /// library's folder holds a module map and no Swift).
    static let modules: [String] = sourceFolders.flatMap { folder in
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(folder).path)) ?? []
        return names.sorted().map { "\(folder)/\($0)" }.filter { !swiftFiles(in: $0).isEmpty }
    }

    /// The Swift files of `module`, as paths relative to it.
    static func swiftFiles(in module: String) -> [String] {
        let walker = FileManager.default.enumerator(atPath: root.appendingPathComponent(module).path)
        var files: [String] = []
        while let path = walker?.nextObject() as? String {
            if path.hasSuffix(".swift") { files.append(path) }
        }
        return files.sorted()
    }

    /// The top-level types of a Swift file that other files may use: declarations at the start of
    /// a line (not nested), after any attributes and modifiers but `private` and `fileprivate`.
    static func types(in text: String) throws -> [String] {
        let declaration = try Regex(
            #"^(?:@[A-Za-z_]+(?:\([^)]*\))? )*(?:(?:public|package|internal|final|open|indirect|nonisolated) )*(?:struct|enum|class|protocol|actor) ([A-Za-z0-9_]+)"#)
        return text.split(separator: "\n").compactMap { line in
            (try? declaration.prefixMatch(in: line))?.output[1].substring.map(String.init)
        }
    }

    /// What counts as a type other files may use, and what does not.
    @Test func countsTheTypesOtherFilesMayUse() throws {
        let text = """
            public struct RuleList: Sendable {
                struct Nested {}
                enum Failure: Error {}
            }
            @MainActor public final class WebView {}
            final class Holder {}
            enum Parser {}
            protocol Decider {}
            public indirect enum Term {}
            actor Queue {}
            private struct Key: Hashable {}
            fileprivate final class Box {}
            private final class WeakReference {}
            extension RuleList {}
            // struct Commented
            /// class Documented
            """
        #expect(try Self.types(in: text) == ["RuleList", "WebView", "Holder", "Parser", "Decider", "Term", "Queue"])
    }

    /// The list of modules is the folders' listing; this fails when it could not be read, rather
    /// than leaving the layout test without arguments.
    @Test func readsEveryModule() {
        for module in ["Sources/TrackerlessCore", "Sources/ContentRuleList", "Sources/TrackerlessCLI", "Integrations/WebKitGTK/Sources/RequestHookKit"] {
            #expect(Self.modules.contains(module), "\(module) is not among the modules read: \(Self.modules)")
        }
    }

    @Test(arguments: modules)
    func oneTypePerFileNamedAfterIt(module: String) throws {
        let directory = Self.root.appendingPathComponent(module)
        for file in Self.swiftFiles(in: module) {
            let text = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
            let types = try Self.types(in: text)
            #expect(types.count <= 1, "\(module)/\(file) declares \(types.joined(separator: ", "))")
            if let type = types.first, types.count == 1 {
                let name = String(file.split(separator: "/").last ?? "")
                let base = String(name.dropLast(".swift".count).prefix { $0 != "+" })
                #expect(base == type, "\(module)/\(file) declares \(type)")
            }
        }
    }

    /// Generated Swift says so by its place: it lives in a `Generated/` folder of its module, and
    /// begins with one header naming the script that writes it (`// Generated by Scripts/…`);
    /// nothing outside such a folder begins that way.
    @Test func generatedCodeInItsPlace() throws {
        let root = Self.sources.deletingLastPathComponent()
        let header = try Regex(#"^// Generated by (Scripts/[A-Za-z0-9_.-]+) [^\n]*\n(?://[^\n]*\n)*// swift-format-ignore-file\n"#)
        var generated: [String] = []
        let walker = FileManager.default.enumerator(atPath: Self.sources.path)
        while let path = walker?.nextObject() as? String {
            guard path.hasSuffix(".swift") else { continue }
            let text = try String(contentsOf: Self.sources.appendingPathComponent(path), encoding: .utf8)
            let match = try header.prefixMatch(in: text)
            let components = path.split(separator: "/")
            let isInGeneratedFolder = components.count == 3 && components[1] == "Generated"
            if isInGeneratedFolder {
                generated.append(path)
                let script = try #require(match, "\(path) is in Generated/ without the generator's header").output[1].substring
                #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent(String(script ?? "")).path),
                    "\(path) names \(script ?? ""), which is not in Scripts/")
            } else {
                #expect(match == nil && !text.hasPrefix("// Generated"), "\(path) is generated but not in its module's Generated/ folder")
            }
        }
        #expect(generated.sorted() == [
            "TrackerDataKit/Generated/Surrogates+Bundled.swift",
            "TrackerlessCore/Generated/PublicSuffixList+Data.swift",
            "UserScripts/Generated/BundledTemplates.swift",
        ])
    }
}
