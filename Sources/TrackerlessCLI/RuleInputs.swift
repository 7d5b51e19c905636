import ContentRuleList
import RuleEngineKit
import TrackerlessCore

/// The files `--rules` names, in order: each a WebKit rule list (JSON) or a compiled engine
/// written by `trackerless compile`, told apart by the compiled format's signature.
struct RuleInputs {
    /// One `--rules` file, parsed or loaded.
    enum File {
        /// A rule list read from JSON.
        case ruleList(RuleList, path: String)
        /// A compiled engine, holding all the lists it was compiled from.
        case engine(RuleEngine, path: String)

        /// The path the file was read from.
        var path: String {
            switch self {
            case .ruleList(_, let path), .engine(_, let path): path
            }
        }
    }

    /// The files, in the order they were named.
    let files: [File]
    /// Time spent parsing JSON rule lists (reading the files not included), in nanoseconds.
    let parseDuration: UInt64
    /// Time spent loading compiled engines (reading the files not included), in nanoseconds.
    let loadDuration: UInt64

    /// Reads every file of `paths`.
    ///
    /// - Throws: ``InputError`` naming the file: an unreadable file, a rule list WebKit would
    ///   refuse (with WebKit's message and the rule index), or a compiled engine that is
    ///   truncated, corrupt or from another format version (with the hint to compile again).
    init(paths: [String]) throws(InputError) {
        var files: [File] = []
        var parseDuration: UInt64 = 0
        var loadDuration: UInt64 = 0
        let clock = MonotonicClock()
        for path in paths {
            let bytes: [UInt8]
            do throws(FileError) {
                bytes = try FileIO.read(path: path)
            } catch {
                throw InputError("\(error)")
            }
            let loadStart = clock.now
            do throws(CompiledEngineError) {
                files.append(.engine(try RuleEngine(compiled: bytes), path: path))
                loadDuration += clock.now - loadStart
                continue
            } catch let error where error.kind == .notACompiledEngine {
                // Not the compiled signature: the file is read as a JSON rule list below.
            } catch {
                throw InputError("\(path): \(error)\n\(Self.recompileHint(path))")
            }
            let parseStart = clock.now
            do throws(RuleListError) {
                files.append(.ruleList(try RuleList(parsing: bytes), path: path))
            } catch {
                throw InputError("\(path): \(error)")
            }
            parseDuration += clock.now - parseStart
        }
        self.files = files
        self.parseDuration = parseDuration
        self.loadDuration = loadDuration
    }

    /// What to do about a compiled engine that cannot be loaded.
    static func recompileHint(_ path: String) -> String {
        "hint: compile the rule lists again: trackerless compile --rules LIST.json [--rules LIST.json ...] --output \(path)"
    }

    /// The paths of the compiled engines among the files.
    var compiledPaths: [String] {
        files.compactMap { file in
            if case .engine(_, let path) = file { return path }
            return nil
        }
    }

    /// Whether any file is a compiled engine.
    var hasCompiledEngines: Bool { !compiledPaths.isEmpty }

    /// The JSON rule lists, in order (compiled engines left out).
    var ruleLists: [RuleList] {
        files.compactMap { file in
            if case .ruleList(let list, _) = file { return list }
            return nil
        }
    }

    /// The number of rules in the JSON rule lists.
    var jsonRuleCount: Int { ruleLists.reduce(0) { $0 + $1.rules.count } }

    /// The engines that decide with these files: each compiled engine as loaded, and each run of
    /// consecutive JSON lists compiled into one engine; with the time spent compiling.
    ///
    /// - Throws: ``InputError`` naming the list's file when the engine refuses a list.
    func engines() throws(InputError) -> (engines: EngineGroup, compileDuration: UInt64) {
        var engines: [RuleEngine] = []
        var pending: [(list: RuleList, path: String)] = []
        var compileDuration: UInt64 = 0
        let clock = MonotonicClock()
        func compilePending() throws(InputError) {
            guard !pending.isEmpty else { return }
            let start = clock.now
            engines.append(try Self.engine(compiling: pending))
            compileDuration += clock.now - start
            pending.removeAll()
        }
        for file in files {
            switch file {
            case .ruleList(let list, let path):
                pending.append((list, path))
            case .engine(let engine, _):
                try compilePending()
                engines.append(engine)
            }
        }
        try compilePending()
        return (EngineGroup(engines), compileDuration)
    }

    /// The reference evaluator for the JSON lists.
    ///
    /// - Throws: ``InputError`` naming the list's file when the evaluator refuses a list.
    func referenceEvaluator() throws(InputError) -> ReferenceEvaluator {
        let lists = files.compactMap { file -> (list: RuleList, path: String)? in
            if case .ruleList(let list, let path) = file { return (list, path) }
            return nil
        }
        do throws(RuleListError) {
            return try ReferenceEvaluator(ruleLists: lists.map(\.list))
        } catch {
            // Name the file: evaluate each list alone to find the one refused.
            for (list, path) in lists {
                do throws(RuleListError) {
                    _ = try ReferenceEvaluator(ruleList: list)
                } catch {
                    throw InputError("\(path): \(error)")
                }
            }
            throw InputError("\(lists.map(\.path).joined(separator: ", ")): \(error)")
        }
    }

    /// One engine for several JSON lists, with an error naming the file of the list it refuses.
    private static func engine(compiling lists: [(list: RuleList, path: String)]) throws(InputError) -> RuleEngine {
        do throws(RuleListError) {
            return try RuleEngine(ruleLists: lists.map(\.list))
        } catch {
            // The error names the list by its index among these; compile each alone to name the file.
            for (list, path) in lists where lists.count > 1 {
                do throws(RuleListError) {
                    _ = try RuleEngine(ruleList: list)
                } catch {
                    throw InputError("\(path): \(error)")
                }
            }
            throw InputError("\(lists.map(\.path).joined(separator: ", ")): \(error)")
        }
    }
}
