import Foundation
import Testing
import TrackerlessTestSupport

/// The README's module graph (the block under "## Modules": "Each module depends only on the
/// modules listed below it; data flows one way"), checked on the sources as they are: every
/// `import` of one of the package's modules in `Sources/<Module>` is of a module the graph lets
/// `<Module>` use, directly or through the modules it uses, and so is every dependency
/// Package.swift declares for it (what a product pulls in).
@Suite("Module graph")
struct ModuleGraphTests {
    /// The modules under Sources/.
    static func modules() throws -> Set<String> {
        let sources = SharedData.packageRoot.appendingPathComponent("Sources").path
        return Set(try FileManager.default.contentsOfDirectory(atPath: sources).filter {
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: sources + "/" + $0, isDirectory: &isDirectory) && isDirectory.boolValue
        })
    }

    /// The README's graph: for each module, the modules an arrow from it reaches ("and the modules
    /// below it": every module of the lines after it).
    static func readmeEdges(modules: Set<String>) throws -> [String: Set<String>] {
        let readme = try String(contentsOf: SharedData.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try #require(readme.components(separatedBy: "\n## Modules\n").dropFirst().first, "README.md has no ## Modules")
        let block = try #require(section.components(separatedBy: "```\n").dropFirst().first, "no graph block under ## Modules")
        // A line with no arrow that starts with spaces continues the one above.
        var lines: [String] = []
        for line in block.split(separator: "\n").map(String.init) {
            if !line.contains("->"), line.hasPrefix(" "), !lines.isEmpty { lines[lines.count - 1] += " " + line } else { lines.append(line) }
        }
        func names(_ text: Substring) -> [String] {
            text.split { !$0.isLetter && !$0.isNumber }.map { $0 == "trackerless" ? "TrackerlessCLI" : String($0) }
                .filter { modules.contains($0) }
        }
        var edges: [String: Set<String>] = [:]
        for (index, line) in lines.enumerated() {
            let segments = line.components(separatedBy: "->").map { Substring($0) }
            for (from, to) in zip(segments, segments.dropFirst()) {
                var targets = Set(names(to))
                // Below it: every module the later lines name, but for itself (the plugin runs the CLI).
                if to.contains("the modules below it") { targets.formUnion(lines[(index + 1)...].flatMap { names(Substring($0)) }) }
                for module in names(from) { edges[module, default: []].formUnion(targets.subtracting([module])) }
            }
        }
        return edges
    }

    /// The modules `module` may use: those its arrows reach, and theirs.
    static func allowed(_ module: String, edges: [String: Set<String>]) -> Set<String> {
        var reached: Set<String> = []
        var pending = Array(edges[module] ?? [])
        while let next = pending.popLast() {
            if reached.insert(next).inserted { pending.append(contentsOf: edges[next] ?? []) }
        }
        return reached
    }

    /// The package's modules `Sources/<module>` imports, with the first file that does.
    static func imports(of module: String, among modules: Set<String>) throws -> [String: String] {
        let directory = SharedData.packageRoot.appendingPathComponent("Sources/" + module)
        let statement = #/^\s*(?:@[A-Za-z_]+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|fileprivate|private)\s+)?import\s+([A-Za-z_][A-Za-z0-9_]*)/#
        var found: [String: String] = [:]
        guard let walker = FileManager.default.enumerator(atPath: directory.path) else { return found }
        for case let relative as String in walker where relative.hasSuffix(".swift") {
            let text = try String(contentsOf: directory.appendingPathComponent(relative), encoding: .utf8)
            for line in text.split(separator: "\n") {
                guard let match = try statement.prefixMatch(in: line) else { continue }
                let name = String(match.output.1)
                if modules.contains(name), name != module, found[name] == nil { found[name] = relative }
            }
        }
        return found
    }

    @Test("the graph is read as the README draws it, and it has no cycle")
    func graphIsRead() throws {
        let modules = try Self.modules()
        let edges = try Self.readmeEdges(modules: modules)
        #expect(Self.allowed("RuleBuilder", edges: edges) == ["TrackerDataKit", "ContentRuleList", "TrackerlessCore"])
        #expect(Self.allowed("NavigationProtections", edges: edges) == ["URLPrefilter", "TrackerDataKit", "TrackerlessCore"])
        #expect(Self.allowed("TrackerlessCore", edges: edges).isEmpty)
        #expect(Self.allowed("TrackerlessCLI", edges: edges).contains("DisconnectLists"), "the CLI uses the modules below it")
        for module in modules.sorted() {
            #expect(!Self.allowed(module, edges: edges).contains(module), "\(module) reaches itself: data does not flow one way")
        }
    }

    @Test("every module is in the README's graph, and imports only the modules the graph puts below it")
    func importsFollowTheGraph() throws {
        let modules = try Self.modules()
        let edges = try Self.readmeEdges(modules: modules)
        let drawn = Set(edges.keys).union(edges.values.flatMap { $0 })
        #expect(modules.subtracting(drawn).isEmpty, "not in the README's graph: \(modules.subtracting(drawn).sorted())")
        var checked = 0
        for module in modules.sorted() {
            let allowed = Self.allowed(module, edges: edges)
            for (name, file) in try Self.imports(of: module, among: modules).sorted(by: { $0.key < $1.key }) {
                checked += 1
                #expect(allowed.contains(name), "Sources/\(module)/\(file) imports \(name), which the README's graph does not put below \(module)")
            }
        }
        #expect(checked > 20, "only \(checked) imports of the package's modules found")
    }

    @Test("every target of Package.swift under Sources depends only on modules the README's graph puts below it",
          .enabled(if: ChildProcess.executable(named: "swift") != nil, "`swift` is not on PATH: the manifest cannot be evaluated"))
    func manifestFollowsTheGraph() throws {
        let modules = try Self.modules()
        let edges = try Self.readmeEdges(modules: modules)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("trackerless-graph-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // A scratch path of its own: the package's .build is locked by the `swift test` running this.
        let dump = try ChildProcess.run(
            try #require(ChildProcess.executable(named: "swift")),
            ["package", "dump-package", "--package-path", SharedData.packageRoot.path,
             "--scratch-path", directory.appendingPathComponent("build").path],
            logs: directory)
        try #require(dump.status == 0, "swift package dump-package failed (\(dump.status)):\n\(dump.output)")
        let json = try #require(dump.output.firstIndex(of: "{").map { dump.output[$0...] }, "no JSON in:\n\(dump.output)")
        let manifest = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        var checked = 0
        for case let target as [String: Any] in manifest["targets"] as? [Any] ?? [] {
            guard let name = target["name"] as? String, modules.contains(name) else { continue }
            let allowed = Self.allowed(name, edges: edges)
            for case let dependency as [String: Any] in target["dependencies"] as? [Any] ?? [] {
                guard let byName = (dependency["byName"] ?? dependency["target"]) as? [Any], let used = byName.first as? String else { continue }
                checked += 1
                #expect(allowed.contains(used), "Package.swift: \(name) depends on \(used), which the README's graph does not put below it")
            }
        }
        #expect(checked > 20, "only \(checked) dependencies of Sources targets found")
    }
}
