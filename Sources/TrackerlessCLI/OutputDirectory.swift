import Foundation
import TrackerlessCore

/// Writes a set of files into a directory so that no reader ever sees a half-written file.
enum OutputDirectory {
    /// A directory that does not exist yet is written as a temporary sibling and renamed into
    /// place, so it appears whole. In an existing directory each file is written to a temporary
    /// file and renamed, in the order given (put the file readers check first, such as a manifest,
    /// last).
    static func write(_ files: [(name: String, bytes: [UInt8])], to directory: String) throws {
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        if manager.fileExists(atPath: directory, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw InputError("\(directory): exists and is not a directory") }
            for file in files { try FileIO.writeAtomically(file.bytes, to: directory + "/" + file.name) }
            return
        }
        let trimmed = directory.hasSuffix("/") ? String(directory.dropLast()) : directory
        let url = URL(fileURLWithPath: trimmed)
        let parent = url.deletingLastPathComponent().path
        guard manager.fileExists(atPath: parent, isDirectory: &isDirectory) else {
            throw InputError("\(directory): the directory \(parent) does not exist")
        }
        guard isDirectory.boolValue else { throw InputError("\(directory): \(parent) is not a directory") }
        let temporary = parent + "/." + url.lastPathComponent + ".tmp-\(ProcessInfo.processInfo.processIdentifier)-\(UInt32.random(in: 0...UInt32.max))"
        guard mkdir(temporary, 0o755) == 0 else {
            throw InputError("\(directory): cannot create a temporary directory in \(parent): \(String(cString: strerror(errno)))")
        }
        do {
            for file in files { try FileIO.writeAtomically(file.bytes, to: temporary + "/" + file.name) }
            guard rename(temporary, trimmed) == 0 else {
                throw InputError("\(directory): renaming into place failed: \(String(cString: strerror(errno)))")
            }
        } catch {
            try? manager.removeItem(atPath: temporary)
            throw error
        }
    }
}
