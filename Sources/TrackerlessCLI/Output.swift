import Foundation

/// Writing to the standard streams.
enum Output {
    static func standardOutput(_ text: String) {
        write(Array((text.hasSuffix("\n") ? text : text + "\n").utf8))
    }

    /// Writes to standard error as far as it can: a message that cannot be written is lost, never
    /// a reason to trap (FileHandle's write traps on a closed or full descriptor).
    static func standardError(_ text: String) {
        _ = writeAll(Array((text.hasSuffix("\n") ? text : text + "\n").utf8), to: STDERR_FILENO)
    }

    /// Writes every byte to standard output, or ends the command with exit status 1 and a
    /// message naming the system's error (a full disk, a closed descriptor, a closed pipe when
    /// SIGPIPE is ignored): FileHandle's write traps on them.
    static func write(_ bytes: [UInt8]) {
        if let reason = writeAll(bytes, to: STDOUT_FILENO) {
            standardError("trackerless: cannot write to standard output: \(reason)")
            exit(1)
        }
    }

    /// Writes every byte to `descriptor`, again after an interruption; the system's reason when
    /// it cannot, nil when all was written.
    static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> String? {
        bytes.withUnsafeBytes { buffer -> String? in
            var offset = 0
            while offset < buffer.count {
                let written = Foundation.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0 && errno == EINTR {
                    continue
                } else {
                    return written < 0 ? String(cString: strerror(errno)) : "nothing was written"
                }
            }
            return nil
        }
    }
}
