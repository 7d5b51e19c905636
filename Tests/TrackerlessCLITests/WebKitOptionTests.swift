import Foundation
import Testing

/// `--webkit TARGET`: lists built and checked for one WebKit.
@Suite("trackerless --webkit", .enabled(if: CommandRunner.isAvailable, "the trackerless executable was not built next to the tests"))
struct WebKitOptionTests {
    /// The sample blocks navigations nowhere but says so with a rule on `top-document`: the
    /// default target writes it as `document` limited to the top frame.
    @Test("rules writes for the oldest WebKit by default, and for the one --webkit names")
    func rulesTargets() throws {
        let oldest = try CommandRunner.run(["rules"])
        #expect(oldest.status == 0, "\(oldest.standardError)")
        #expect(!oldest.standardOutput.contains("top-document"))
        #expect(oldest.standardOutput.contains(#""load-context":["top-frame"]"#))
        let gtk = try CommandRunner.run(["rules", "--webkit", "webkitgtk-2.50"])
        #expect(gtk.status == 0, "\(gtk.standardError)")
        #expect(gtk.standardOutput.contains("top-document"))
        let explicit = try CommandRunner.run(["rules", "--webkit", "safari-15"])
        #expect(explicit.standardOutput == oldest.standardOutput)
    }

    @Test("an unknown --webkit is wrong usage naming the value and the known targets",
          arguments: ["webkitgtk-2.40", "safari-14", "chromium"])
    func unknownTarget(name: String) throws {
        for command in [["rules"], ["cookies"], ["validate", "x.json"]] {
            let result = try CommandRunner.run(command + ["--webkit", name])
            #expect(result.status == 2, "\(command): \(result.standardError)")
            #expect(result.standardError.contains("\"\(name)\""), "\(result.standardError)")
            #expect(result.standardError.contains("safari-15"), "\(result.standardError)")
        }
    }

    @Test("validate --webkit refuses what that WebKit refuses, in its words, and warns where it ignores a key")
    func validateTargets() throws {
        let directory = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let refused = directory.appendingPathComponent("new-types.json").path
        try Data(#"[{"trigger":{"url-filter":"x","resource-type":["child-document"]},"action":{"type":"block"}}]"#.utf8)
            .write(to: URL(fileURLWithPath: refused))
        let old = try CommandRunner.run(["validate", "--webkit", "webkitgtk-2.44", refused])
        #expect(old.status == 1)
        #expect(old.standardError.contains("rule 0: Invalid string in the trigger flags array."), "\(old.standardError)")
        #expect(old.standardError.contains("WebKitGTK 2.44 does not know it"), "\(old.standardError)")
        let new = try CommandRunner.run(["validate", "--webkit", "webkitgtk-2.54", refused])
        #expect(new.status == 0, "\(new.standardError)")
        #expect(new.standardOutput.contains("valid for WebKitGTK 2.54, 1 rules"), "\(new.standardOutput)")

        let ignored = directory.appendingPathComponent("frame-url.json").path
        try Data(#"[{"trigger":{"url-filter":"x","unless-frame-url":["y"]},"action":{"type":"block"}}]"#.utf8)
            .write(to: URL(fileURLWithPath: ignored))
        let warned = try CommandRunner.run(["validate", "--webkit", "safari-18", ignored])
        #expect(warned.status == 0)
        #expect(warned.standardError.contains(
            #"warning: rule 0: Safari 18 (iOS 18, macOS 15) ignores the trigger key "unless-frame-url""#), "\(warned.standardError)")
        let quiet = try CommandRunner.run(["validate", ignored])
        #expect(quiet.status == 0)
        #expect(quiet.standardError.isEmpty, "\(quiet.standardError)")
    }

    @Test("scripts takes the target from the build plugin's options file too")
    func scriptsOptionsFile() throws {
        let directory = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let options = directory.appendingPathComponent("trackerless.json").path
        try Data(#"{"webkit": "webkitgtk-2.50"}"#.utf8).write(to: URL(fileURLWithPath: options))
        let newer = directory.appendingPathComponent("newer").path
        let result = try CommandRunner.run(["scripts", "--options", options, "--output", newer])
        #expect(result.status == 0, "\(result.standardError)")
        let newerRules = try String(contentsOfFile: newer + "/rules.json", encoding: .utf8)
        #expect(newerRules.contains("top-document"))
        let oldest = directory.appendingPathComponent("oldest").path
        #expect(try CommandRunner.run(["scripts", "--output", oldest]).status == 0)
        #expect(try !String(contentsOfFile: oldest + "/rules.json", encoding: .utf8).contains("top-document"))
        try Data(#"{"webkit": "webkitgtk-1.0"}"#.utf8).write(to: URL(fileURLWithPath: options))
        let refused = try CommandRunner.run(["scripts", "--options", options, "--output", oldest])
        #expect(refused.status == 2, "\(refused.standardError)")
        #expect(refused.standardError.contains("webkitgtk-1.0"), "\(refused.standardError)")
    }

    @Test("the lists rules writes for a target pass that target's validator without a warning",
          arguments: ["safari-15", "webkitgtk-2.44", "webkitgtk-2.54"])
    func writtenListsValidate(name: String) throws {
        let directory = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let set = directory.appendingPathComponent("set").path
        let rules = try CommandRunner.run(["rules", "--webkit", name, "--output", set + "/"])
        #expect(rules.status == 0, "\(rules.standardError)")
        for file in ["rules.json", "rules.block-ctl-fb.json", "rules.block-ctl-yt.json"] {
            let path = set + "/" + file
            guard FileManager.default.fileExists(atPath: path) else { continue }
            let validate = try CommandRunner.run(["validate", "--webkit", name, path])
            #expect(validate.status == 0, "\(file): \(validate.standardError)")
            #expect(validate.standardError.isEmpty, "\(file): \(validate.standardError)")
        }
    }
}
