#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import TrackerlessCore

/// Replaces a set of files in one directory all together or not at all.
enum DirectoryWriter {
    /// Stages every file under a temporary name, keeps a hard link to each file it replaces,
    /// then renames the staged files into place; on failure renames the old ones back.
    ///
    /// - Parameter renameFile: `rename(2)`, replaceable so that tests can make a rename fail.
    static func write(
        _ files: [(name: String, bytes: [UInt8])], toDirectory directory: String,
        renamingWith renameFile: (String, String) -> Int32 = { rename($0, $1) }
    ) throws(FileError) {
        var status = stat()
        var createdDirectory = false
        if stat(directory, &status) == 0 {
            guard (status.st_mode & S_IFMT) == S_IFDIR else {
                throw FileError(path: directory, reason: "exists and is not a directory")
            }
        } else {
            guard mkdir(directory, 0o777) == 0 else { throw systemError(directory, while: "creating the directory") }
            createdDirectory = true
        }
        let suffix = ".staged-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let targets = files.map { directory + "/" + $0.name }
        for target in targets {
            var existing = stat()
            if stat(target, &existing) == 0, (existing.st_mode & S_IFMT) == S_IFDIR {
                throw FileError(path: target, reason: "is a directory, not a file")
            }
        }
        let staged = files.map { directory + "/." + $0.name + suffix }
        let backups = files.map { directory + "/." + $0.name + suffix + ".old" }
        var stagedCount = 0
        var backedUp: [Bool] = Array(repeating: false, count: files.count)
        var renamedCount = 0

        func rollBack() {
            for index in 0..<renamedCount {
                if backedUp[index] {
                    _ = rename(backups[index], targets[index])
                    backedUp[index] = false
                } else {
                    unlink(targets[index])
                }
            }
            for index in 0..<stagedCount where index >= renamedCount { unlink(staged[index]) }
            for index in backups.indices where backedUp[index] { unlink(backups[index]) }
            if createdDirectory { rmdir(directory) }
        }

        do throws(FileError) {
            for (index, file) in files.enumerated() {
                try FileIO.writeAtomically(file.bytes, to: staged[index])
                stagedCount += 1
            }
            for index in targets.indices {
                if link(targets[index], backups[index]) == 0 {
                    backedUp[index] = true
                } else if errno != ENOENT {
                    throw systemError(targets[index], while: "keeping the old file")
                }
            }
            for index in targets.indices {
                guard renameFile(staged[index], targets[index]) == 0 else {
                    throw systemError(targets[index], while: "renaming into place")
                }
                renamedCount += 1
            }
        } catch {
            rollBack()
            throw error
        }
        for index in backups.indices where backedUp[index] { unlink(backups[index]) }
        let descriptor = open(directory, O_RDONLY | O_CLOEXEC)
        if descriptor >= 0 {
            _ = fsync(descriptor)
            close(descriptor)
        }
    }

    private static func systemError(_ path: String, while action: String) -> FileError {
        let message = strerror(errno).map { String(cString: $0) } ?? "error \(errno)"
        return FileError(path: path, reason: "\(action) failed: \(message)")
    }
}
