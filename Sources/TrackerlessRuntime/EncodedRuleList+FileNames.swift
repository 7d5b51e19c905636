/// The names of a set's lists as files: what `trackerless rules` and `trackerless scripts`
/// write and the build plugin and the tests read, from one function.
extension EncodedRuleList {
    /// The file name of each list, in order: `rules.json`, `rules.2.json`, … for the blocking
    /// lists, `rules.<action>.json`, `rules.<action>.2.json`, … for the Click-to-Load lists of an
    /// action (`rules.block-ctl-fb.json`; an action's rules are in more than one list where an
    /// entity has lists of its own), and `cookies.json`, `cookies.2.json`, … for the cookie lists.
    /// Each is numbered by its order among the lists of its kind (and action), so no two lists
    /// of a set share a name.
    package static func fileNames(of lists: [(kind: Kind, clickToLoadAction: String?)]) -> [String] {
        var numbers: [String: Int] = [:]
        return lists.map { list in
            let stem =
                switch list.kind {
                case .blocking: "rules"
                case .cookies: "cookies"
                case .clickToLoad: "rules.\(fileNamePart(list.clickToLoadAction ?? ""))"
                }
            let number = (numbers[stem] ?? 0) + 1
            numbers[stem] = number
            return numberedFileName(stem, number)
        }
    }

    /// ``fileNames(of:)-swift.type.method`` of a set's lists.
    package static func fileNames(of lists: [EncodedRuleList]) -> [String] {
        fileNames(of: lists.map { ($0.kind, $0.clickToLoadAction) })
    }

    /// `<stem>.json` for the first list, `<stem>.2.json` for the second, ...
    package static func numberedFileName(_ stem: String, _ number: Int) -> String {
        number == 1 ? "\(stem).json" : "\(stem).\(number).json"
    }

    /// A Click-to-Load action as part of a file name: every character but ASCII letters, digits,
    /// `-` and `_` replaced by `_`.
    package static func fileNamePart(_ action: String) -> String {
        String(action.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") ? $0 : "_" })
    }
}
