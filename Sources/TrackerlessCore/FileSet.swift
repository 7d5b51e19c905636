#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A set of files that readers see as one generation: a path that is a symbolic link to a
/// directory named by the set's content hash, switched to a new generation by one `rename(2)`.
///
/// Writing `out` with files `a.json` and `b.json` gives:
///
/// ```
/// out -> .out.3f2a9c0d1e4b5a67      (symbolic link, replaced atomically)
/// .out.3f2a9c0d1e4b5a67/a.json      (the generation: complete before the link names it,
/// .out.3f2a9c0d1e4b5a67/b.json       never changed after)
/// ```
///
/// A reader resolves `out` once (`realpath(3)`, `URL.resolvingSymlinksInPath()`) and reads every
/// file of the set from the directory it resolved to: all the files then come from one write,
/// even while another write replaces the link. Each write keeps the generation it replaced, so a
/// reader that resolved the link just before can finish, and removes older ones. A kill at any
/// point leaves `out` naming the old generation or the new one, complete; what a killed write
/// left behind is removed by the next write. One writer at a time.
public enum FileSet: Sendable {
    /// One file of a set: a plain name (no `/`) and its contents.
    public typealias File = (name: String, bytes: [UInt8])

    /// The points of a write, in order, for tests that stop a write there as a kill would.
    package enum Step: Sendable, Equatable {
        case fileWritten(String)
        case generationRenamed
        case linkCreated
        case linkSwapped
    }

    /// Writes `files` as the new generation of the set at `path` (a path that does not exist, a
    /// link written by this method, or a directory holding only files that `isOwnFile` accepts,
    /// such as an older version's outputs, which is replaced).
    ///
    /// - Returns: the generation directory written, which `path` now links to.
    /// - Throws: ``FileError`` naming `path`, or the file that failed as `path/<name>`; `path` is
    ///   then unchanged.
    @discardableResult
    public static func write(
        _ files: [File], to path: String, isOwnFile: (String) -> Bool = { _ in false }
    ) throws(FileError) -> String {
        try write(files, to: path, isOwnFile: isOwnFile, continuingAfter: { _ in true }) ?? path
    }

    /// The generation directory that the set at `path` is read from now: `path` with its links
    /// resolved. Read every file of one set from this one directory.
    public static func generation(of path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Writes the files named `names` as the new generation of the set at `path`, as
    /// ``write(_:to:isOwnFile:)`` writes them, asking `contents` for each file's bytes (by its
    /// index in `names`) only when the file before it is written: a caller that makes each file
    /// when asked, and holds it no longer, never holds all the files at once. The generation is
    /// named by the files' hash once they are written.
    ///
    /// - Throws: ``FileError`` as ``write(_:to:isOwnFile:)``, or the one `contents` throws, named
    ///   as the set's file; `path` is then unchanged.
    @discardableResult
    public static func write(
        names: [String], to path: String, isOwnFile: (String) -> Bool = { _ in false },
        contents: (Int) throws(FileError) -> [UInt8]
    ) throws(FileError) -> String {
        try write(names: names, to: path, isOwnFile: isOwnFile, continuingAfter: { _ in true }, contents: contents) ?? path
    }

    /// ``write(_:to:isOwnFile:)`` that stops, as if killed, after the first step for which
    /// `continuingAfter` returns false; nil when stopped.
    package static func write(
        _ files: [File], to path: String, isOwnFile: (String) -> Bool,
        continuingAfter: (Step) -> Bool
    ) throws(FileError) -> String? {
        try write(names: files.map(\.name), to: path, isOwnFile: isOwnFile, continuingAfter: continuingAfter) { index throws(FileError) in
            files[index].bytes
        }
    }

    /// ``write(names:to:isOwnFile:contents:)`` that stops, as if killed, after the first step for
    /// which `continuingAfter` returns false; nil when stopped.
    package static func write(
        names: [String], to path: String, isOwnFile: (String) -> Bool,
        continuingAfter: (Step) -> Bool, contents: (Int) throws(FileError) -> [UInt8]
    ) throws(FileError) -> String? {
        let link = linkPath(path)
        var writer = try Writer(path: path, isOwnFile: isOwnFile, names: names)
        for (index, name) in names.enumerated() {
            let bytes: [UInt8]
            do throws(FileError) {
                bytes = try contents(index)
            } catch {
                // Named as the set's file: the temporary directory goes with the failure.
                writer.discard()
                throw FileError(path: link + "/" + name, reason: error.reason)
            }
            try writer.add(name, bytes)
            if !continuingAfter(.fileWritten(name)) { return nil }
        }
        return try writer.finish(continuingAfter: continuingAfter)
    }

    /// `path` without its trailing `/`: the set's link.
    static func linkPath(_ path: String) -> String {
        path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
    }

    /// Throws unless `name` is a plain file name for a file of the set at `path`.
    static func checkName(_ name: String, of path: String) throws(FileError) {
        if name.isEmpty || name.contains("/") || name.hasPrefix(".") {
            throw FileError(path: path, reason: "\"\(name)\" is not a plain file name")
        }
    }

    /// The files of the set at `path` as one write left them: the link resolved once, every file
    /// of the generation read, and their content hash checked against the generation's name.
    /// Nil when the set is missing, is not a generation this type wrote, or any file was cut,
    /// altered, added or removed since: a reader never takes a damaged set for a whole one.
    ///
    /// The name is the hash of the names and contents (``XXH64``, against damage, not an
    /// adversary who can write the directory).
    package static func verifiedFiles(of path: String) -> (generation: String, files: [String: [UInt8]])? {
        verifiedFiles(of: path, deferring: []) { _ in [:] }
    }

    /// What a set says of a file it holds, for ``verifiedFiles(of:deferring:claimed:)``: its size
    /// and XXH64 (``XXH64/hexDigest(_:)``).
    package typealias Claim = (size: Int, digest: String)

    /// ``verifiedFiles(of:)`` without reading the files named in `deferred`: their size and XXH64
    /// are what `claimed` finds in the files read (a manifest written with them), and the
    /// generation's name checks those claims with every other file. A deferred file is read on
    /// first use with ``verifiedFile(at:claim:)``, which checks it against its claim: a launch
    /// does not pay for a file it may never need, and the file is still never taken damaged.
    ///
    /// Nil as for ``verifiedFiles(of:)``, and when a deferred file of the generation has no claim.
    package static func verifiedFiles(
        of path: String, deferring deferred: Set<String>, claimed: ([String: [UInt8]]) -> [String: Claim]
    ) -> (generation: String, files: [String: [UInt8]])? {
        let generation = generation(of: path)
        let name = lastComponent(generation)
        guard let dot = name.lastIndex(of: "."), name.hasPrefix("."), name.distance(from: dot, to: name.endIndex) == 17,
            let names = try? entries(of: generation)
        else { return nil }
        var files: [File] = []
        for file in names where !deferred.contains(file) {
            guard let bytes = try? FileIO.read(path: generation + "/" + file) else { return nil }
            files.append((file, bytes))
        }
        let read = Dictionary(files.map { ($0.name, $0.bytes) }, uniquingKeysWith: { first, _ in first })
        var records = files.map { (name: $0.name, size: $0.bytes.count, digest: XXH64.hexDigest($0.bytes)) }
        let claims = deferred.isEmpty ? [:] : claimed(read)
        for file in names where deferred.contains(file) {
            guard let claim = claims[file] else { return nil }
            records.append((file, claim.size, claim.digest))
        }
        guard String(contentHash(records).prefix(16)) == name[name.index(after: dot)...] else { return nil }
        return (generation, read)
    }

    /// The file at `path` when its size and XXH64 are those of `claim`; nil when it is missing,
    /// unreadable or differs (see ``verifiedFiles(of:deferring:claimed:)``).
    package static func verifiedFile(at path: String, claim: Claim) -> [UInt8]? {
        guard let bytes = try? FileIO.read(path: path), bytes.count == claim.size, XXH64.hexDigest(bytes) == claim.digest
        else { return nil }
        return bytes
    }

    /// 16 hex digits: XXH64 of each file's name, size and XXH64, in name order. A name for a
    /// generation that tells its contents apart from any other write's, at memory speed.
    static func contentHash(_ records: [(name: String, size: Int, digest: String)]) -> String {
        var bytes: [UInt8] = []
        for record in records.sorted(by: { $0.name < $1.name }) {
            bytes += Array("\(record.name)\u{0}\(record.size)\u{0}\(record.digest)\n".utf8)
        }
        return XXH64.hexDigest(bytes)
    }

    /// Whether `directory` holds exactly the files of `records`: the same names, each with the
    /// same size and XXH64.
    static func holds(_ directory: String, _ records: [(name: String, size: Int, digest: String)]) -> Bool {
        guard let names = try? entries(of: directory), names.sorted() == records.map(\.name).sorted() else { return false }
        return records.allSatisfy { record in
            guard let bytes = try? FileIO.read(path: directory + "/" + record.name) else { return false }
            return bytes.count == record.size && XXH64.hexDigest(bytes) == record.digest
        }
    }

    /// Removes the generations other than `keeping`, and what killed writes left: temporary
    /// directories and links of processes that are gone.
    static func removeStale(in parent: String, prefix: String, keeping: [String]) {
        guard let names = try? entries(of: parent) else { return }
        for name in names where name.hasPrefix(prefix) && !keeping.contains(name) {
            let suffix = name.dropFirst(prefix.count)
            let path = parent + "/" + name
            if suffix.count == 16, suffix.allSatisfy(\.isHexDigit) {
                removeFlatDirectory(path)
                continue
            }
            for kind in ["tmp-", "link-", "replaced-"] where suffix.hasPrefix(kind) {
                let owner = suffix.dropFirst(kind.count).split(separator: "-").first.flatMap { Int32($0) }
                guard let owner, owner != getpid(), kill(owner, 0) != 0, errno == ESRCH else { continue }
                if kind == "link-" { unlink(path) } else { removeFlatDirectory(path) }
            }
        }
    }

    /// The names in a directory, without `.` and `..`.
    static func entries(of directory: String) throws(FileError) -> [String] {
        guard let stream = opendir(directory) else { throw systemError(directory, while: "listing") }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { buffer in
                String(decoding: buffer.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }

    /// Removes a directory of plain files (a generation, a temporary one). A name of ours that is
    /// a link (restored by a backup tool, say) is removed as a link: what it points to is never
    /// touched; anything else that is not a directory is left alone.
    static func removeFlatDirectory(_ directory: String) {
        var status = stat()
        guard lstat(directory, &status) == 0 else { return }
        switch status.st_mode & S_IFMT {
        case S_IFLNK:
            unlink(directory)
            return
        case S_IFDIR:
            break
        default:
            return
        }
        for name in (try? entries(of: directory)) ?? [] { unlink(directory + "/" + name) }
        rmdir(directory)
    }

    static func readLink(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static func lastComponent(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    static func syncDirectory(_ directory: String) {
        let descriptor = open(directory, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        close(descriptor)
    }

    static func systemError(_ path: String, while action: String) -> FileError {
        let message = strerror(errno).map { String(cString: $0) } ?? "error \(errno)"
        return FileError(path: path, reason: "\(action) failed: \(message)")
    }
}
