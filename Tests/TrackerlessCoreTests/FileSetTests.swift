import Foundation
import Testing
@testable import TrackerlessCore

@Suite("FileSet")
struct FileSetTests {
    /// A fresh directory under the system's temporary directory, removed by the caller.
    private func makeDirectory() throws -> String {
        let path = NSTemporaryDirectory() + "trackerless-fileset-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// A set of rule lists as `rules` names them, each file saying which set it belongs to.
    private func set(_ tag: String, count: Int) -> [FileSet.File] {
        (1...count).map { number in
            (number == 1 ? "rules.json" : "rules.\(number).json", Array("[\"\(tag) \(number) of \(count)\"]".utf8))
        }
    }

    /// What a host reads, as TrackerlessCore's article "Sets of files" says: the link resolved once, then rules.json,
    /// rules.2.json, ... from there until one is missing.
    private func read(_ path: String) -> [FileSet.File] {
        let generation = FileSet.generation(of: path)
        var files: [FileSet.File] = []
        while true {
            let name = files.isEmpty ? "rules.json" : "rules.\(files.count + 1).json"
            guard let bytes = try? FileIO.read(path: generation + "/" + name) else { return files }
            files.append((name, bytes))
        }
    }

    private func same(_ left: [FileSet.File], _ right: [FileSet.File]) -> Bool {
        left.map(\.name) == right.map(\.name) && left.map(\.bytes) == right.map(\.bytes)
    }

    private func names(in directory: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
    }

    @Test("a write stopped at any step, as by a kill, leaves the old set or the new one whole, never a mix")
    func stoppedWritesNeverMix() throws {
        let directory = try makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let link = directory + "/rules"
        var current = set("first", count: 3)
        try FileSet.write(current, to: link + "/")
        #expect(same(read(link), current))
        var stops = 0
        for round in 0..<4 {
            // Stop after the first step, the second, ... until a write runs to its end. Each
            // write has new contents, of another number of lists, so that a list left over from
            // the other set would show.
            var stopAfter = 0
            while true {
                let next = set("round \(round) try \(stopAfter)", count: 1 + (round + stopAfter) % 3)
                var steps = 0
                let finished = try FileSet.write(next, to: link, isOwnFile: { _ in false }) { _ in
                    steps += 1
                    return steps <= stopAfter
                }
                let seen = read(link)
                #expect(same(seen, current) || same(seen, next),
                        "stopped after \(stopAfter) steps: read \(seen.map { String(decoding: $0.bytes, as: UTF8.self) })")
                if same(seen, next) { current = next }
                if finished != nil { break }
                stops += 1
                stopAfter += 1
            }
            #expect(same(read(link), current))
        }
        #expect(stops >= 16)
        // Of the generations, only the set and the one it replaced remain.
        let generations = names(in: directory).filter { $0.hasPrefix(".rules.") && $0.count == ".rules.".count + 16 }
        #expect(generations.count == 2, "\(names(in: directory))")
    }

    @Test("each write keeps the generation it replaced and removes older ones; the same contents reuse their directory")
    func keepsThePreviousGeneration() throws {
        let directory = try makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let link = directory + "/out"
        let first = try FileSet.write(set("A", count: 2), to: link)
        let second = try FileSet.write(set("B", count: 2), to: link)
        #expect(FileManager.default.fileExists(atPath: first), "the replaced generation stays for readers")
        let third = try FileSet.write(set("C", count: 2), to: link)
        #expect(!FileManager.default.fileExists(atPath: first))
        #expect(FileManager.default.fileExists(atPath: second))
        #expect(FileSet.generation(of: link) == FileSet.generation(of: third))
        let again = try FileSet.write(set("C", count: 2), to: link)
        #expect(again == third)
        #expect(same(read(link), set("C", count: 2)))
    }

    /// A write killed while removing an older generation leaves it with files missing; a later
    /// write of the same contents must not take that directory for the set.
    @Test("a half-removed generation of the same contents is written again, not reused")
    func halfRemovedGeneration() throws {
        let directory = try makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let link = directory + "/out"
        let first = try FileSet.write(set("A", count: 3), to: link)
        _ = try FileSet.write(set("B", count: 3), to: link)
        _ = try FileSet.write(set("C", count: 3), to: link)
        // The removal of A's generation killed half-way: A's directory with one file left.
        try FileManager.default.createDirectory(atPath: first, withIntermediateDirectories: true)
        try Data("[\"A 1 of 3\"]".utf8).write(to: URL(fileURLWithPath: first + "/rules.json"))
        let again = try FileSet.write(set("A", count: 3), to: link)
        #expect(again == first)
        #expect(same(read(link), set("A", count: 3)), "the set read back is not whole: \(names(in: again))")
        #expect(FileSet.verifiedFiles(of: link) != nil)
    }

    /// A backup tool may restore a stale generation's name as a link to elsewhere: removing the
    /// stale generation removes the link, never the files it points to.
    @Test("a stale generation that is a link to a directory elsewhere: the link goes, the directory's files stay")
    func staleGenerationLink() throws {
        let directory = try makeDirectory()
        let outside = try makeDirectory()
        defer {
            try? FileManager.default.removeItem(atPath: directory)
            try? FileManager.default.removeItem(atPath: outside)
        }
        try Data("the user's data".utf8).write(to: URL(fileURLWithPath: outside + "/precious.txt"))
        let link = directory + "/out"
        let stale = directory + "/.out.0123456789abcdef"
        try FileManager.default.createSymbolicLink(atPath: stale, withDestinationPath: outside)
        _ = try FileSet.write(set("A", count: 1), to: link)
        _ = try FileSet.write(set("B", count: 1), to: link)
        #expect(FileManager.default.fileExists(atPath: outside + "/precious.txt"), "a file behind the link was removed")
        #expect(!names(in: directory).contains(".out.0123456789abcdef"), "the stale link stays: \(names(in: directory))")
    }

    @Test("a reader checks the generation against its name: a file cut, altered, removed or added is refused")
    func verifiedFiles() throws {
        let directory = try makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let link = directory + "/set"
        let files = set("A", count: 3)
        let generation = try FileSet.write(files, to: link)
        let whole = try #require(FileSet.verifiedFiles(of: link))
        #expect(whole.generation == FileSet.generation(of: link))
        #expect(whole.files == Dictionary(uniqueKeysWithValues: files.map { ($0.name, $0.bytes) }))
        for file in files {
            let path = generation + "/" + file.name
            for damage in ["cut", "flip", "remove"] {
                switch damage {
                case "cut": try FileIO.writeAtomically(Array(file.bytes.dropLast()), to: path)
                case "flip": try FileIO.writeAtomically(file.bytes.enumerated().map { $0.offset == 3 ? $0.element ^ 0x20 : $0.element }, to: path)
                default: try FileManager.default.removeItem(atPath: path)
                }
                #expect(FileSet.verifiedFiles(of: link) == nil, "\(file.name) \(damage)")
                try FileIO.writeAtomically(file.bytes, to: path)
                #expect(FileSet.verifiedFiles(of: link) != nil, "\(file.name) repaired")
            }
        }
        try FileIO.writeAtomically(Array("{}".utf8), to: generation + "/extra.json")
        #expect(FileSet.verifiedFiles(of: link) == nil, "a file added")
        #expect(FileSet.verifiedFiles(of: directory + "/missing") == nil)
        #expect(FileSet.verifiedFiles(of: directory) == nil, "not a generation")
    }

    @Test("an older version's plain output directory is replaced; a directory with other files is refused and left alone")
    func plainDirectories() throws {
        let directory = try makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let old = directory + "/old"
        try FileManager.default.createDirectory(atPath: old, withIntermediateDirectories: false)
        try FileIO.writeAtomically(Array("old".utf8), to: old + "/rules.json")
        try FileSet.write(set("A", count: 1), to: old, isOwnFile: { $0.hasPrefix("rules") })
        #expect(same(read(old), set("A", count: 1)))
        #expect(names(in: directory).count == 2, "\(names(in: directory))")

        let mine = directory + "/mine"
        try FileManager.default.createDirectory(atPath: mine, withIntermediateDirectories: false)
        try FileIO.writeAtomically(Array("keep".utf8), to: mine + "/notes.txt")
        #expect(throws: FileError.self) { try FileSet.write(set("A", count: 1), to: mine, isOwnFile: { $0.hasPrefix("rules") }) }
        #expect(names(in: mine) == ["notes.txt"])

        let file = directory + "/file"
        try FileIO.writeAtomically([], to: file)
        #expect(throws: FileError.self) { try FileSet.write(set("A", count: 1), to: file) }
    }

    @Test("a generation written file by file under other names, renamed at the end: the generation of the files given whole; discarded, nothing is left")
    func writerRenamesAndDiscards() throws {
        let directory = try makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let files = set("streamed", count: 3)
        let whole = try FileSet.write(files, to: directory + "/whole")
        // Made in another order, under names of their own, then renamed.
        var writer = try FileSet.Writer(path: directory + "/parts/", isOwnFile: { _ in false })
        for index in files.indices.reversed() { try writer.add("pending.\(index)", files[index].bytes) }
        for index in files.indices { try writer.renameFile("pending.\(index)", to: files[index].name) }
        let generation = try #require(try writer.finish())
        #expect(same(read(directory + "/parts"), files))
        #expect(generation.split(separator: ".").last == whole.split(separator: ".").last)
        #expect(FileSet.verifiedFiles(of: directory + "/parts") != nil)
        // A file left under its other name is part of the name: another generation.
        var other = try FileSet.Writer(path: directory + "/other", isOwnFile: { _ in false })
        for file in files { try other.add(file.name, file.bytes) }
        try other.renameFile(files[2].name, to: "pending.2")
        let otherGeneration = try #require(try other.finish())
        #expect(otherGeneration.split(separator: ".").last != whole.split(separator: ".").last)
        // Discarded: the set as before, no temporary directory.
        let before = names(in: directory)
        var discarded = try FileSet.Writer(path: directory + "/parts", isOwnFile: { _ in false })
        try discarded.add("rules.json", Array("[]".utf8))
        #expect(names(in: directory).count == before.count + 1)
        discarded.discard()
        #expect(names(in: directory) == before)
        #expect(same(read(directory + "/parts"), files))
        // Renaming a file that was not added: refused, naming it, and nothing is left.
        var missing = try FileSet.Writer(path: directory + "/parts", isOwnFile: { _ in false })
        #expect(throws: FileError.self) { try missing.renameFile("pending.9", to: "rules.json") }
        #expect(names(in: directory) == before)
    }

    @Test("files made when asked: each asked for once, in order, after the one before is written; the same generation as the files given whole")
    func filesMadeWhenAsked() throws {
        let directory = try makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let files = set("A", count: 3)
        var asked: [Int] = []
        let generation = try FileSet.write(names: files.map(\.name), to: directory + "/made") { index in
            // Every file before this one is in the temporary directory already.
            let written = names(in: directory).filter { $0.hasPrefix(".made.tmp-") }.flatMap { names(in: directory + "/" + $0) }
            #expect(written.sorted() == files[..<index].map(\.name).sorted())
            asked.append(index)
            return files[index].bytes
        }
        #expect(asked == [0, 1, 2])
        #expect(same(read(directory + "/made"), files))
        let whole = try FileSet.write(files, to: directory + "/whole")
        #expect(generation.split(separator: ".").last == whole.split(separator: ".").last)
        #expect(FileSet.verifiedFiles(of: directory + "/made") != nil)
    }

    @Test("a file that cannot be made: the error names it in the set, the set and the directory are as before")
    func fileThatCannotBeMade() throws {
        let directory = try makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let link = directory + "/out"
        try FileSet.write(set("A", count: 2), to: link)
        let before = names(in: directory)
        do {
            try FileSet.write(names: ["rules.json", "rules.2.json"], to: link) { index throws(FileError) in
                guard index == 0 else { throw FileError(path: "elsewhere", reason: "no bytes") }
                return Array("[]".utf8)
            }
            Issue.record("the write went on")
        } catch {
            #expect(error.path == link + "/rules.2.json" && error.reason == "no bytes")
        }
        #expect(same(read(link), set("A", count: 2)))
        #expect(names(in: directory) == before)
    }
}
