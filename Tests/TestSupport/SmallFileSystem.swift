import Foundation
public import Testing

/// A real file system of a few hundred kilobytes for one test: a tmpfs mounted at a fresh
/// temporary directory, which the test fills (ENOSPC) or remounts read-only (EROFS), so that a
/// full or read-only disk is the kernel's, not a simulation.
///
/// Mounting needs root with CAP_SYS_ADMIN (CI runs as root); elsewhere, or in a container that
/// refuses mounts, the tests that need one are skipped with ``mountAllowed``'s message. A
/// `unshare -rm` namespace is no way around that for these tests: its mounts are seen only by
/// processes started inside it, and a test process has threads, which `unshare(2)` refuses.
public struct SmallFileSystem: Sendable {
    /// The directory the file system is mounted at.
    public let path: String

    /// Why a test file system cannot be mounted here; nil when one can.
    public static let mountRefusal: String? = {
        do {
            try with(size: 64 * 1024) { _ in }
            return nil
        } catch {
            return "\(error)"
        }
    }()

    /// The trait of a test that needs a file system of its own: skipped, saying why, without one.
    public static let mountAllowed = ConditionTrait.enabled(
        if: mountRefusal == nil,
        Comment(rawValue: "no tmpfs for a full or read-only disk: \(mountRefusal ?? ""); run the tests as root (CI does)"))

    /// Mounts a tmpfs of `size` bytes at a fresh temporary directory, runs `body` with it, and
    /// unmounts it and removes the directory, whether `body` returns or throws.
    public static func with<T>(size: Int, _ body: (SmallFileSystem) throws -> T) throws -> T {
        let system = try mounted(size: size)
        defer { system.unmount() }
        return try body(system)
    }

    /// ``with(size:_:)`` for an asynchronous `body`.
    public static func with<T>(
        size: Int, isolation: isolated (any Actor)? = #isolation, _ body: (SmallFileSystem) async throws -> T
    ) async throws -> T {
        let system = try mounted(size: size)
        defer { system.unmount() }
        return try await body(system)
    }

    private static func mounted(size: Int) throws(MountError) -> SmallFileSystem {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("trackerless-tmpfs-\(UUID().uuidString)").path
        guard mkdir(path, 0o755) == 0 else { throw MountError(operation: "mkdir \(path)", code: errno) }
        #if os(Linux)
        guard mount("tmpfs", path, "tmpfs", 0, "size=\(size),mode=0755") == 0 else {
            let code = errno
            rmdir(path)
            throw MountError(operation: "mount -t tmpfs -o size=\(size) tmpfs \(path)", code: code)
        }
        return SmallFileSystem(path: path)
        #else
        rmdir(path)
        throw MountError(operation: "mount -t tmpfs", code: ENOSYS)
        #endif
    }

    /// Unmounts (lazily, so an open file does not keep it) and removes the mount point.
    private func unmount() {
        #if os(Linux)
        umount2(path, Int32(MNT_DETACH))
        #endif
        rmdir(path)
    }

    /// The filler file ``fill()`` writes.
    public var fillerPath: String { path + "/filler" }

    /// Writes zeros into ``fillerPath`` until the file system says ENOSPC, then gives back
    /// `room` bytes: with none, not one more byte of data fits (a new empty file or a rename
    /// still does, as on a full disk); with some, a write that needs more fails midway.
    public func fill(leaving room: Int = 0) throws(MountError) {
        let descriptor = open(fillerPath, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw MountError(operation: "open \(fillerPath)", code: errno) }
        defer { close(descriptor) }
        let zeros = [UInt8](repeating: 0, count: 4096)
        while true {
            let written = zeros.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                guard errno == ENOSPC else { throw MountError(operation: "write \(fillerPath)", code: errno) }
                var status = stat()
                guard fstat(descriptor, &status) == 0, ftruncate(descriptor, max(0, status.st_size - off_t(room))) == 0 else {
                    throw MountError(operation: "truncate \(fillerPath)", code: errno)
                }
                return
            }
        }
    }

    /// Removes ``fillerPath``: the room ``fill()`` took is free again.
    public func makeRoom() {
        unlink(fillerPath)
    }

    /// Remounts the file system read-only (`mount -o remount,ro`): every write is EROFS.
    public func remountReadOnly() throws(MountError) {
        #if os(Linux)
        try remount(flags: UInt(MS_REMOUNT | MS_RDONLY), "remount,ro")
        #endif
    }

    /// Remounts the file system writable again (`mount -o remount,rw`).
    public func remountWritable() throws(MountError) {
        #if os(Linux)
        try remount(flags: UInt(MS_REMOUNT), "remount,rw")
        #endif
    }

    private func remount(flags: UInt, _ options: String) throws(MountError) {
        #if os(Linux)
        guard mount("tmpfs", path, nil, flags, nil) == 0 else {
            throw MountError(operation: "mount -o \(options) \(path)", code: errno)
        }
        #else
        throw MountError(operation: "mount -o \(options) \(path)", code: ENOSYS)
        #endif
    }

    /// What a test makes of the disk before the write under test.
    public enum Fault: String, CaseIterable, Sendable, CustomTestStringConvertible {
        /// Filled to ENOSPC.
        case full
        /// Remounted read-only: EROFS.
        case readOnly

        /// The fault's name in a test's arguments.
        public var testDescription: String { rawValue }

        /// The system's words for it, as `strerror` says them.
        public var reason: String { String(cString: strerror(self == .full ? ENOSPC : EROFS)) }
    }

    /// Fills the disk or remounts it read-only.
    public func apply(_ fault: Fault) throws(MountError) {
        switch fault {
        case .full: try fill()
        case .readOnly: try remountReadOnly()
        }
    }

    /// The names in `directory`, recursively, relative to it and sorted: what a test compares
    /// before and after a failed write to find a temporary left behind.
    public static func tree(_ directory: String) -> [String] {
        (FileManager.default.subpaths(atPath: directory) ?? []).sorted()
    }
}
