import ContentRuleList
import Foundation
import RuleBuilder
import TrackerDataKit
import TrackerlessCore
import TrackerlessRuntime

/// `trackerless rules`: Tracker Radar data and a privacy configuration to WebKit rule list JSON.
enum RulesCommand {
    static let help = """
    Usage: trackerless rules [--tds FILE] [--privacy-config FILE] [--allowlist FILE] [--output FILE|DIR/]
                             [--site-conditions if-top-url|if-domain] [--exact-path-matches]
                             [--max-rules N] [--max-bytes N] [--webkit TARGET] [--report] [--sources]

    Builds the WebKit content-blocker rule list whose meaning is the Tracker Radar resolver's.
      --tds FILE              Tracker Radar blocklist (tds.json); without it, the bundled sample
      --privacy-config FILE   DuckDuckGo privacy configuration (unprotected sites, allowlists, request blocklist)
      --allowlist FILE        user allowlist: a JSON array of sites where protection is off
      --output FILE|DIR/      write the list(s) instead of standard output:
                              FILE (no trailing /): the one list, replaced whole (temporary file,
                              then rename; a device or FIFO, such as /dev/null, is written directly);
                              refused when the rules need several lists. Standard output and FILE
                              give a company lists of its own only where they save 1 MB, so that
                              rules that fit one list (apple-tds.json's) stay one list.
                              DIR/ (a trailing /, or a path that is already a directory): the set
                              rules.json, rules.2.json, ... as one generation, where also the 20
                              companies whose trackers repeat the most site entries get lists of
                              their own, which WebKit compiles faster (apple-tds.json: 21 lists
                              besides Click-to-Load's; the same loads blocked, except a tracker's
                              final-dot host on its own company's site, which these lists allow,
                              as the resolver does). DIR becomes a symbolic
                              link to .DIR.<content hash>/, switched by one rename, so that a kill
                              leaves the old set or the new one. A host resolves DIR once (realpath)
                              and reads rules.json, rules.2.json, ... from the resolved directory
                              until the next number is missing: every list it installs then comes
                              from one run. The replaced generation is kept until the next run. A
                              plain DIR holding only rules*.json is replaced; any other is refused.
                              Click-to-Load rules (block-ctl-fb, ...) are in lists of their own, per
                              rule action, that a host removes for a page where the user clicked to
                              load: DIR/rules.block-ctl-fb.json (then rules.block-ctl-fb.2.json ...)
                              in a set, FILE's name with .block-ctl-fb (.block-ctl-fb.2 ...) before
                              its extension beside FILE (where those an earlier run wrote for
                              lists this build has not are removed); not on standard output.
      --site-conditions S     how page conditions are written: if-top-url (anchored, exact; default)
                              or if-domain (WebKit's own form, unanchored)
      --exact-path-matches    also match a rule's text where it appears in the path or query of a
                              tracker URL, as the resolver does (exact; about doubles WebKit's compile time)
      --max-rules N           most rules per list (default and maximum 150000)
      --max-bytes N           most bytes of JSON per list (default: the target's budget, 19000000,
                              10000000 for safari-17); lists are split to stay within it, and a part
                              that cannot be split and is larger is refused
    \(WebKitOption.help)
      --report                print what was left out or approximated to standard error
      --sources               with --output, also write beside each list the input each of its
                              rules came from, as a JSON array parallel to the list's rules
                              ({"kind": "tracker", "name": "x.com", "path": "trackers[\"x.com\"]"},
                              kinds tracker, cname, entity, configuration; a tracker's or CNAME's
                              rule also names the tracker's input it says: "part" "default",
                              "rule" with "index" and "rule" (its text) and the "path"
                              trackers["x.com"].rules[3], or "firstPartyException"): rules.sources.json
                              beside rules.json, and so on. trackerless decide --explain reads
                              them to name where each applied rule came from.
    With --output or --report, standard error ends with each list's size against its limits
    ("size: main list: 8601/150000 rules (5.7%), 4461929/19000000 bytes (23.5%)"); with --report,
    then the run's peak memory where the system says it ("peak memory: 43776 kB").
    Warnings about the inputs (a value of the wrong type or an unsupported value, skipped as
    DuckDuckGo's clients skip it) always go to standard error, each with its file and JSON path.
    """

    static func run(_ arguments: [String]) throws -> Int32 {
        let options = try CommandLineArguments(
            arguments,
            valueOptions: ProtectionInputs.optionNames.union(ProtectionInputs.ruleListOptionNames).union(["output"]),
            flagOptions: ["exact-path-matches", "report", "sources"]
        )
        if options.has("help") {
            Output.standardOutput(help)
            return 0
        }
        guard options.positionals.isEmpty else { throw UsageError("unexpected argument \"\(options.positionals[0].excerpt())\"") }
        let writesSources = options.has("sources")
        if writesSources, options["output"] == nil || options["output"].map(OutputFile.isWrittenDirectly) == true {
            throw UsageError("--sources needs --output FILE or DIR/, beside which the sources are written")
        }
        var inputs = try ProtectionInputs.forRuleLists(options)
        // One file (or standard output) holds one list: no lists of their own for compile time,
        // which would make apple-tds.json's rules 21 lists.
        if !(options["output"].map(isSetPath) ?? false) { inputs.ruleLists.entityListsForCompileTime = false }
        // The one build's rule list stage, with the same settings a host gives the runtime.
        let (report, ruleCount, listCount): (BuildReport, Int, Int)
        if let output = options["output"], isSetPath(output), !writesSources {
            // Each list written as it is packed (its sources are not asked for).
            (report, ruleCount, listCount) = try buildWritingSet(inputs, to: output)
        } else {
            (report, ruleCount, listCount) = try buildWriting(inputs, to: options["output"], writesSources: writesSources)
        }
        // Input the rules leave out is never dropped in silence.
        for warning in report.inputWarnings { Output.standardError("warning: \(warning)") }
        if options.has("report") {
            for note in report.skippedRules { Output.standardError("skipped: \(note)") }
            for note in report.approximations { Output.standardError("approximated: \(note)") }
        }
        if options["output"] != nil || options.has("report") {
            Output.standardError(
                "\(ruleCount) rules in \(listCount) list(s) for \(report.trackerCount) trackers; "
                    + "\(report.skippedRules.count) input rules skipped, \(report.approximations.count) approximated, "
                    + "\(report.inputWarnings.count) input warning(s)"
                    + (options.has("report") ? "" : " (--report lists them)"))
            // How close each list is to the target's limits: a list near either needs splitting soon.
            for size in report.listSizes { Output.standardError("size: \(size)") }
        }
        if options.has("report"), let peak = peakMemoryKilobytes() {
            Output.standardError("peak memory: \(peak) kB")
        }
        return 0
    }

    /// The blocking lists of `inputs`, written to `output` (a set when it is one, standard output
    /// without it) with their sources where `writesSources`: the lists are all built, then
    /// written. The parsed blocklist, which the lists no longer need, is gone before they are
    /// encoded and written, its entity records, which no rule list reads, before the build (at
    /// 1,000,000 trackers about 230 MB of its peak), and each tracker's rules once its section is
    /// made (read again, from the file, only where WebKit would refuse a list). Where each rule
    /// came from is kept only with --sources: one source per rule, which a build of 1,000,000
    /// trackers would otherwise hold for nothing.
    static func buildWriting(
        _ inputs: ProtectionInputs, to output: String?, writesSources: Bool
    ) throws -> (report: BuildReport, ruleCount: Int, listCount: Int) {
        var build = try ProtectionInputs.forCommand { () throws(ProtectionError) in
            var parsed = try inputs.parseWithoutEntityRecords()
            return try parsed.blockingRulesLettingGoOfTrackers(recordingSources: writesSources) { () throws(ProtectionError) in
                try inputs.parseWithoutEntityRecords()
            }
        }
        let (ruleCount, listCount) = (build.ruleCount, build.ruleLists.count)
        if let output, isSetPath(output) {
            // The lists are written from here alone, so that each goes once encoded: all of them
            // beside all their JSON was the run's peak.
            var lists = build.ruleLists
            build.ruleLists = []
            try writeSet(&lists, clickToLoadActions: build.clickToLoadActions, sources: writesSources ? build.sources : [], to: output)
        } else {
            let mainLists = build.ruleLists(unblocking: Set(build.clickToLoadActions.compactMap { $0 }))
            // The Click-to-Load lists' files are named as in a set, each beside FILE.
            let listNames = fileNames(of: build.ruleLists, clickToLoadActions: build.clickToLoadActions)
            var written: Set<String> = []
            if writesSources, let output = output {
                // The main list's sources, then each Click-to-Load list's, beside its file.
                let main = zip(build.sources, build.clickToLoadActions).filter { $0.1 == nil }.map(\.0)
                if let sources = main.first, main.count == 1 {
                    try FileIO.writeAtomically(Self.encoded(sources), to: sourcesPath(beside: output))
                }
                for (sources, (action, name)) in zip(build.sources, zip(build.clickToLoadActions, listNames)) where action != nil {
                    let path = sourcesPath(beside: clickToLoadPath(beside: output, fileName: name))
                    try FileIO.writeAtomically(Self.encoded(sources), to: path)
                    written.insert(path)
                }
            }
            try write(mainLists, to: output, target: inputs.webKit, isValidated: true)
            for (list, (action, name)) in zip(build.ruleLists, zip(build.clickToLoadActions, listNames)) {
                guard let action else { continue }
                guard let output = output else {
                    Output.standardError("note: the Click-to-Load list of \(action) is not written to standard output; give --output")
                    continue
                }
                // Beside /dev/null, the list would be a file in /dev.
                guard !OutputFile.isWrittenDirectly(output) else {
                    Output.standardError("note: the Click-to-Load list of \(action) is not written beside \(output), "
                        + "which is not a file; give --output FILE or DIR/")
                    continue
                }
                let path = clickToLoadPath(beside: output, fileName: name)
                try FileIO.writeAtomically(list.encoded(), to: path)
                written.insert(path)
            }
            if let output, !OutputFile.isWrittenDirectly(output) {
                // Sources an earlier --sources run wrote describe lists that are now replaced.
                if !writesSources, try OutputFile.removeEarlierFile(at: sourcesPath(beside: output), what: "the earlier list's sources") {
                    Output.standardError("note: removed \(sourcesPath(beside: output)), the sources of an earlier run's list")
                }
                for path in try removeEarlierClickToLoadFiles(beside: output, keeping: written) {
                    Output.standardError("note: removed \(path), an earlier run's Click-to-Load file that this build has no list for")
                }
            }
        }
        return (build.report, ruleCount, listCount)
    }

    /// The blocking lists of `inputs` written to the set `output` as they are built: each list,
    /// once its last section is packed and WebKit would accept it, is encoded and written into
    /// the generation's temporary directory under a name of its own (its final name is known
    /// once all are built) and let go, so that the finished lists are never all held
    /// (``ParsedInputs/blockingRulesLettingGoOfTrackers(parsingAgain:handingOver:)``). The
    /// generation is named as ``writeSet(_:clickToLoadActions:sources:to:)`` names it, from
    /// each file's final name, size and XXH64: the same set. Where a list would be refused, what
    /// was written is removed and the build that leaves the refused input out is written as
    /// ``buildWriting(_:to:writesSources:)`` writes it; a refused build leaves nothing behind.
    static func buildWritingSet(_ inputs: ProtectionInputs, to output: String) throws -> (report: BuildReport, ruleCount: Int, listCount: Int) {
        var writer: FileSet.Writer?
        var failure: FileError?
        var handedOverRuleCount = 0
        let made: (build: RuleListBuild, handedOver: [Int?]?)
        do {
            made = try ProtectionInputs.forCommand { () throws(ProtectionError) in
                var parsed = try inputs.parseWithoutEntityRecords()
                return try parsed.blockingRulesLettingGoOfTrackers { () throws(ProtectionError) in
                    try inputs.parseWithoutEntityRecords()
                } handingOver: { number, list in
                    handedOverRuleCount += list.rules.count
                    guard failure == nil else { return }
                    do throws(FileError) {
                        if writer == nil { writer = try FileSet.Writer(path: output, isOwnFile: isSetFileName) }
                        // A failed write removes the temporary directory.
                        try writer?.add(pendingFileName(number), list.encoded())
                    } catch {
                        failure = error
                        writer = nil
                    }
                }
            }
        } catch {
            writer?.discard()
            throw error
        }
        var build = made.build
        guard let handedOver = made.handedOver else {
            // A list would be refused: the build that leaves its input out, written whole.
            writer?.discard()
            let (ruleCount, listCount) = (build.ruleCount, build.ruleLists.count)
            var lists = build.ruleLists
            build.ruleLists = []
            try writeSet(&lists, clickToLoadActions: build.clickToLoadActions, sources: [], to: output)
            return (build.report, ruleCount, listCount)
        }
        if let failure { throw failure }
        let ruleCount = build.ruleCount + handedOverRuleCount
        let names = fileNames(of: build.ruleLists, clickToLoadActions: build.clickToLoadActions)
        var set = try writer ?? FileSet.Writer(path: output, isOwnFile: isSetFileName)
        for (index, name) in names.enumerated() {
            if let number = handedOver[index] {
                try set.renameFile(pendingFileName(number), to: name)
            } else {
                try set.add(name, build.ruleLists[index].encoded())
                build.ruleLists[index] = RuleList([])
            }
        }
        _ = try set.finish()
        return (build.report, ruleCount, names.count)
    }

    /// The name a list handed over as it was packed is written under until the set's names are
    /// known: no name of a set's file (``isSetFileName(_:)``).
    static func pendingFileName(_ number: Int) -> String {
        "pending.\(number).list"
    }

    /// Whether `name` is a file that a set of lists holds: a list's or its sources'.
    static func isSetFileName(_ name: String) -> Bool {
        isRuleListFileName(name) || isSourcesFileName(name)
    }

    /// Writes one list whole to a file, or the lists as one generation of a set (``FileSet``),
    /// after checking every list with our validator (``RuleList/validateTriggers()``); nothing is
    /// written when one fails. `isValidated`: the lists come from ``RuleListBuilder/build()``,
    /// which has run the same check.
    static func write(
        _ lists: [RuleList], clickToLoadActions: [String?] = [], sources: [[RuleSource]] = [], to output: String?,
        target: WebKitTarget, isValidated: Bool = false
    ) throws {
        if !isValidated {
            try checkValid(target: target, lists.enumerated().map { index, list in
                guard let output else { return ("standard output", list) }
                guard isSetPath(output) else { return (output, list) }
                return ((output.hasSuffix("/") ? output : output + "/") + ruleListFileName(index + 1), list)
            })
        }
        guard let output else {
            guard lists.count == 1, let list = lists.first else {
                throw InputError("the rules need \(lists.count) lists; give --output DIR/ to write them as one set")
            }
            Output.write(list.encoded() + [0x0A])
            return
        }
        guard isSetPath(output) else {
            guard lists.count == 1, let list = lists.first else {
                throw InputError("\(output): the rules need \(lists.count) lists, which one file cannot hold; "
                    + "give --output DIR/ (with the trailing /) to write them as one set")
            }
            try OutputFile.write(list.encoded(), to: output)
            return
        }
        var lists = lists
        try writeSet(&lists, clickToLoadActions: clickToLoadActions, sources: sources, to: output)
    }

    /// Writes `lists` as one generation of a set (``FileSet``), with the `sources` of each list's
    /// rules beside it. Each list is encoded when its file is written and let go then (`lists` is
    /// left with empty ones), its JSON once written: a caller that holds no other copy never
    /// holds every list, nor all their JSON, at once.
    static func writeSet(_ lists: inout [RuleList], clickToLoadActions: [String?], sources: [[RuleSource]], to output: String) throws {
        let listNames = fileNames(of: lists, clickToLoadActions: clickToLoadActions)
        let sourcesNames = zip(listNames, sources).map { name, _ in sourcesPath(beside: name) }
        try FileSet.write(names: listNames + sourcesNames, to: output, isOwnFile: isSetFileName) {
            index in
            guard index < lists.count else { return encoded(sources[index - lists.count]) }
            defer { lists[index] = RuleList([]) }
            return lists[index].encoded()
        }
    }

    /// `rules.sources.json` for `rules.json`: where the sources of a list's rules go.
    static func sourcesPath(beside listPath: String) -> String {
        let stem = listPath.hasSuffix(".json") ? String(listPath.dropLast(".json".count)) : listPath
        return stem + ".sources.json"
    }

    /// Whether `name` is the sources file of a list of a set (`rules.sources.json`, ...).
    static func isSourcesFileName(_ name: String) -> Bool {
        name.hasSuffix(".sources.json") && isRuleListFileName(String(name.dropLast(".sources.json".count)) + ".json")
    }

    /// The sources of a list's rules as a JSON array, one object per rule.
    static func encoded(_ sources: [RuleSource]) -> [UInt8] {
        Array(JSONValue.array(sources.map { $0.jsonValue() }).jsonString().utf8) + [0x0A]
    }

    /// `/a/out.block-ctl-fb.json` for `/a/out.json` and the set's file name
    /// `rules.block-ctl-fb.json` (`/a/out.block-ctl-fb.2.json` for `rules.block-ctl-fb.2.json`):
    /// where a Click-to-Load list goes beside the main list's file.
    static func clickToLoadPath(beside output: String, fileName: String) -> String {
        let url = URL(fileURLWithPath: output)
        let stem = url.deletingPathExtension().lastPathComponent
        let suffix = url.pathExtension.isEmpty ? "" : "." + url.pathExtension
        let part = fileName.dropFirst("rules.".count).dropLast(".json".count)
        return url.deletingLastPathComponent().appendingPathComponent("\(stem).\(part)\(suffix)").path
    }

    /// Checks every list with our validator, the one `rules` builds with and `validate` runs.
    ///
    /// - Throws: ``InputError`` naming the list, the rule index and WebKit's error, for the first
    ///   list that WebKit would refuse.
    static func checkValid(target: WebKitTarget, _ lists: [(name: String, list: RuleList)]) throws(InputError) {
        for (name, list) in lists {
            do throws(RuleListError) {
                try list.validateTriggers(for: target)
            } catch {
                var named = error
                named.file = name
                throw InputError("\(named); \(target.displayName) would refuse the list, so nothing was written")
            }
        }
    }

    /// The names of the files of a set of lists, by ``TrackerlessRuntime/EncodedRuleList/fileNames(of:)``
    /// as `trackerless scripts` names them: rules.json, rules.2.json, ... for the main lists, and
    /// rules.block-ctl-fb.json, ... for the Click-to-Load lists (`clickToLoadActions`, parallel
    /// to `lists`; missing entries are main lists).
    static func fileNames(of lists: [RuleList], clickToLoadActions: [String?] = []) -> [String] {
        EncodedRuleList.fileNames(of: lists.indices.map { index -> (kind: EncodedRuleList.Kind, clickToLoadAction: String?) in
            let action = index < clickToLoadActions.count ? clickToLoadActions[index] : nil
            return (action == nil ? .blocking : .clickToLoad, action)
        })
    }

    /// `rules.json` for the first list, `rules.2.json` for the second, ...
    static func ruleListFileName(_ number: Int) -> String {
        EncodedRuleList.numberedFileName("rules", number)
    }

    /// Whether `name` is one of the names ``ruleListFileName(_:)`` gives, or a Click-to-Load list's.
    static func isRuleListFileName(_ name: String) -> Bool {
        if name.hasPrefix("rules.block-ctl-"), name.hasSuffix(".json") {
            // rules.<action>.json, rules.<action>.2.json, ...; the action's part has no dot.
            let numbered = name.dropFirst("rules.".count).dropLast(".json".count)
            let part = numbered.split(separator: ".", maxSplits: 1)[0]
            return String(part) == EncodedRuleList.fileNamePart(String(part)) && isNumberedFileName(name, stem: "rules.\(part)")
        }
        return isNumberedFileName(name, stem: "rules")
    }

    /// Whether `name` is one of the names `EncodedRuleList.numberedFileName(_:_:)` gives for `stem`.
    static func isNumberedFileName(_ name: String, stem: String) -> Bool {
        if name == "\(stem).json" { return true }
        guard name.hasPrefix("\(stem)."), name.hasSuffix(".json") else { return false }
        let number = name.dropFirst(stem.count + 1).dropLast(".json".count)
        return !number.isEmpty && number.allSatisfy { ("0"..."9").contains($0) } && (Int(number) ?? 0) >= 2
    }

    /// This process's peak resident memory (VmHWM), in kB; nil where /proc is absent (macOS).
    static func peakMemoryKilobytes() -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
        else { return nil }
        return line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first.flatMap { Int($0) }
    }

    /// Whether `--output` names a set (a directory): a trailing `/`, or an existing directory or
    /// link to one.
    static func isSetPath(_ path: String) -> Bool {
        if path.hasSuffix("/") { return true }
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
    }
}
