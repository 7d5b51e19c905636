import Foundation

/// A Debian root with its own WebKitGTK and python3 (made by `.ci/install-webkit-roots.sh`), in
/// which ``CompileHarness`` runs the harness with bubblewrap, as the WebKit tests do with
/// `TRACKERLESS_WEBKIT_ROOT` (`Tests/WebKitTests/WebKitHarness.swift`, `inRoot`; this is the
/// benchmark's own copy of those lines).
struct WebKitRoot: Sendable {
    /// bubblewrap.
    static let bwrap = "/usr/bin/bwrap"
    /// The file the root's script writes last, naming the root's WebKitGTK (`webkit=2.44.2`).
    static let stampName = "trackerless-webkit-root"

    /// The root's directory.
    let path: String
    /// The WebKitGTK version its stamp names (`2.44.2`), or nil when the stamp has none.
    let stampedVersion: String?

    /// The root at `path`; throws a message when it is not a finished root or bubblewrap or
    /// its python3 is missing.
    init(path: String) throws(BenchmarkError) {
        let files = FileManager.default
        var isDirectory: ObjCBool = false
        guard files.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw .usage("--webkit-root \(path): no such directory (make the roots with .ci/install-webkit-roots.sh)")
        }
        let root = URL(fileURLWithPath: path).standardizedFileURL.path
        guard let stamp = files.contents(atPath: root + "/" + Self.stampName) else {
            throw .usage("--webkit-root \(path) is not a finished WebKit root (no \(Self.stampName) stamp; rebuild it with .ci/install-webkit-roots.sh)")
        }
        guard files.isExecutableFile(atPath: root + "/usr/bin/python3") else {
            throw .usage("--webkit-root \(path) has no /usr/bin/python3 (rebuild it with .ci/install-webkit-roots.sh)")
        }
        guard files.isExecutableFile(atPath: Self.bwrap) else {
            throw .usage("\(Self.bwrap) is missing (apt: bubblewrap), needed to run the harness in --webkit-root \(path)")
        }
        self.path = root
        stampedVersion = String(decoding: stamp, as: UTF8.self).split(separator: "\n")
            .first { $0.hasPrefix("webkit=") }.map { String($0.dropFirst("webkit=".count)) }
    }

    /// `command` (the root's `/usr/bin/python3` and its arguments) run inside the root with
    /// bubblewrap: the root's top-level directories read-only at /, fresh /proc, /dev, /tmp and
    /// /run, the host's /sys read-only, no network, and `readOnly` (the harness's directory, the
    /// rule lists' directories) at their own paths, so that the paths in the harness's input stay
    /// valid. The environment is cleared.
    func command(_ command: [String], readOnly: [String]) -> [String] {
        let files = FileManager.default
        var arguments = [Self.bwrap, "--die-with-parent", "--unshare-pid", "--unshare-ipc", "--unshare-net",
                         "--unshare-uts", "--hostname", "webkit-root"]
        let special: Set<String> = ["proc", "dev", "sys", "tmp", "run", "home", "root", "mnt", "media",
                                    "lost+found", "boot"]
        for name in ((try? files.contentsOfDirectory(atPath: path)) ?? []).sorted() where !special.contains(name) {
            let entry = path + "/" + name
            if let target = try? files.destinationOfSymbolicLink(atPath: entry) {
                arguments += ["--symlink", target, "/" + name]
                continue
            }
            var isDirectory: ObjCBool = false
            if files.fileExists(atPath: entry, isDirectory: &isDirectory), isDirectory.boolValue {
                arguments += ["--ro-bind", entry, "/" + name]
            }
        }
        arguments += ["--proc", "/proc", "--dev", "/dev", "--tmpfs", "/dev/shm", "--ro-bind", "/sys", "/sys",
                      "--tmpfs", "/tmp", "--tmpfs", "/run", "--tmpfs", "/var/tmp", "--dir", "/tmp/home"]
        // Parents before what lies inside them; a directory inside another bound one is bound again
        // harmlessly.
        for directory in Set(readOnly).sorted(by: { ($0.count, $0) < ($1.count, $1) }) {
            arguments += ["--ro-bind", directory, directory]
        }
        arguments += ["--clearenv", "--setenv", "PATH", "/usr/sbin:/usr/bin:/sbin:/bin",
                      "--setenv", "HOME", "/tmp/home", "--setenv", "LANG", "C.UTF-8",
                      "--setenv", "TMPDIR", "/tmp", "--setenv", "PYTHONDONTWRITEBYTECODE", "1",
                      "--setenv", "NO_AT_BRIDGE", "1", "--chdir", "/tmp"]
        if let api = ProcessInfo.processInfo.environment["TRACKERLESS_WEBKIT_API"] {
            arguments += ["--setenv", "TRACKERLESS_WEBKIT_API", api]
        }
        return arguments + ["--"] + command
    }
}
