#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension FileSet {
    /// A generation of the set at a path written file by file, for a caller that makes its files
    /// one at a time and may learn their final names only once all are made: each file goes into
    /// the generation's temporary directory as it is added, may be renamed there, and
    /// ``finish(continuingAfter:)`` names the generation from every file's name, size and XXH64
    /// and switches the link, as ``FileSet/write(names:to:isOwnFile:contents:)`` does (which
    /// uses it). ``discard()`` removes what was added: `path` is then unchanged.
    package struct Writer {
        /// The set's path as given.
        let path: String
        /// The set's link: `path` without a trailing `/`.
        let link: String
        let parent: String
        /// `.<link name>.`: what the generation's directory and temporary names start with.
        let prefix: String
        /// This write's part of its temporary names: the process and a random number.
        let unique: String
        /// The directory the files go into until the generation is named.
        let temporary: String
        /// The generation the link names now, kept for readers that resolved it.
        let previous: String?
        /// Whether `link` is a directory of an older version's outputs, moved aside at the end.
        let legacyDirectory: Bool
        /// Each file added: its name, size and XXH64.
        private(set) var records: [(name: String, size: Int, digest: String)] = []

        /// A write of the set at `path` (see ``FileSet/write(_:to:isOwnFile:)``), its temporary
        /// directory made. `names`: file names checked before anything is made.
        ///
        /// - Throws: ``FileError`` naming `path` where it cannot hold a set, or a name is not a
        ///   plain file name.
        package init(path: String, isOwnFile: (String) -> Bool, names: [String] = []) throws(FileError) {
            self.path = path
            link = FileSet.linkPath(path)
            parent = FileIO.directoryName(of: link)
            let base = link.split(separator: "/").last.map(String.init) ?? ""
            guard !base.isEmpty, base != ".", base != ".." else {
                throw FileError(path: path, reason: "needs a name for the set's link, not a bare directory")
            }
            for name in names { try FileSet.checkName(name, of: path) }
            var existing = stat()
            var legacyDirectory = false
            var previous: String?
            if lstat(link, &existing) == 0 {
                switch existing.st_mode & S_IFMT {
                case S_IFLNK:
                    previous = FileSet.readLink(link)
                case S_IFDIR:
                    let names = try FileSet.entries(of: link)
                    if let other = names.first(where: { !isOwnFile($0) }) {
                        throw FileError(path: path, reason: "is a directory holding other files (\"\(other)\"); "
                            + "give a new path: the set is written as a link to a generation directory")
                    }
                    legacyDirectory = true
                default:
                    throw FileError(path: path, reason: "exists and is not a directory or a link to one")
                }
            }
            self.previous = previous
            self.legacyDirectory = legacyDirectory
            prefix = "." + base + "."
            unique = "\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
            temporary = parent + "/" + prefix + "tmp-" + unique
            guard mkdir(temporary, 0o755) == 0 else {
                throw FileSet.systemError(path, while: "creating a directory in \(parent)")
            }
        }

        /// Writes the file `name` of the generation.
        ///
        /// - Throws: ``FileError`` naming the set's file (`path/<name>`); the temporary directory
        ///   is then removed, and this write is over.
        package mutating func add(_ name: String, _ bytes: [UInt8]) throws(FileError) {
            do throws(FileError) {
                try FileSet.checkName(name, of: path)
                try FileIO.writeAtomically(bytes, to: temporary + "/" + name)
            } catch {
                discard()
                throw FileError(path: link + "/" + name, reason: error.reason)
            }
            records.append((name, bytes.count, XXH64.hexDigest(bytes)))
        }

        /// Renames the file added as `name` to `newName`, a name no file added has.
        ///
        /// - Throws: ``FileError`` as ``add(_:_:)``.
        package mutating func renameFile(_ name: String, to newName: String) throws(FileError) {
            guard let index = records.firstIndex(where: { $0.name == name }) else {
                discard()
                throw FileError(path: link + "/" + name, reason: "was not written")
            }
            do throws(FileError) {
                try FileSet.checkName(newName, of: path)
            } catch {
                discard()
                throw error
            }
            guard rename(temporary + "/" + name, temporary + "/" + newName) == 0 else {
                let error = FileSet.systemError(link + "/" + newName, while: "renaming \(name)")
                discard()
                throw error
            }
            records[index].name = newName
        }

        /// Removes the files added and their directory: the set is as it was.
        package func discard() {
            FileSet.removeFlatDirectory(temporary)
        }

        /// Names the generation from the files added, moves it into place and switches the link
        /// to it (see ``FileSet/write(_:to:isOwnFile:)``), stopping as if killed after the first
        /// step for which `continuingAfter` returns false.
        ///
        /// - Returns: the generation directory; nil when stopped.
        /// - Throws: ``FileError`` naming `path`, which is then unchanged.
        package func finish(continuingAfter: (Step) -> Bool = { _ in true }) throws(FileError) -> String? {
            let generationName = prefix + String(FileSet.contentHash(records).prefix(16))
            let generation = parent + "/" + generationName
            var status = stat()
            // A directory of this name is reused only when it holds exactly these files: a write
            // killed while removing an older generation of the same contents leaves one with files
            // missing, which would otherwise become the set.
            if lstat(generation, &status) == 0, !((status.st_mode & S_IFMT) == S_IFDIR && FileSet.holds(generation, records)) {
                if (status.st_mode & S_IFMT) == S_IFDIR { FileSet.removeFlatDirectory(generation) } else { unlink(generation) }
            }
            if lstat(generation, &status) == 0 {
                discard()
            } else if rename(temporary, generation) != 0 {
                // Another write of the same contents got there first: its directory is the same.
                guard errno == EEXIST || errno == ENOTEMPTY else {
                    let error = FileSet.systemError(path, while: "renaming the generation into place")
                    discard()
                    throw error
                }
                discard()
            }
            FileSet.syncDirectory(parent)
            if !continuingAfter(.generationRenamed) { return nil }

            let temporaryLink = parent + "/" + prefix + "link-" + unique
            guard symlink(generationName, temporaryLink) == 0 else { throw FileSet.systemError(path, while: "creating a link") }
            if !continuingAfter(.linkCreated) { return nil }
            var aside: String?
            if legacyDirectory {
                // A directory cannot be replaced by a link in one rename: move it aside first. Only
                // an older write's outputs are moved (checked when the write began), once.
                let moved = parent + "/" + prefix + "replaced-" + unique
                guard rename(link, moved) == 0 else {
                    unlink(temporaryLink)
                    throw FileSet.systemError(path, while: "moving the old directory aside")
                }
                aside = moved
            }
            guard rename(temporaryLink, link) == 0 else {
                let error = FileSet.systemError(path, while: "replacing the link")
                if let aside { _ = rename(aside, link) }
                unlink(temporaryLink)
                throw error
            }
            FileSet.syncDirectory(parent)
            if !continuingAfter(.linkSwapped) { return nil }

            if let aside { FileSet.removeFlatDirectory(aside) }
            FileSet.removeStale(in: parent, prefix: prefix, keeping: [generationName, previous.map(FileSet.lastComponent)].compactMap { $0 })
            return generation
        }
    }
}
