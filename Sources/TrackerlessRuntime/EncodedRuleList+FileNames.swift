/// The names of a set's lists as files: what `trackerless rules` and `trackerless scripts`
/// write and the build plugin and the tests read, from one function.
extension EncodedRuleList {
    /// The file name of each list, in order: `rules.json`, `rules.2.json`, … for the blocking
    /// lists, `rules.<action>.json` for a Click-to-Load list (`rules.block-ctl-fb.json`), and
    /// `cookies.json`, `cookies.2.json`, … for the cookie lists. The blocking and cookie lists are
    /// numbered by their order among the lists of their kind.
    package static func fileNames(of lists: [(kind: Kind, clickToLoadAction: String?)]) -> [String] {
        var numbers: [Kind: Int] = [:]
        return lists.map { list in
            let number = (numbers[list.kind] ?? 0) + 1
            numbers[list.kind] = number
            switch list.kind {
            case .blocking: return numberedFileName("rules", number)
            case .cookies: return numberedFileName("cookies", number)
            case .clickToLoad: return "rules.\(fileNamePart(list.clickToLoadAction ?? "")).json"
            }
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
