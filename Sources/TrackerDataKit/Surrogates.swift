import TrackerlessCore

/// The replacement scripts of DuckDuckGo's surrogates.txt, by the name tds rules use in their
/// `surrogate` field.
///
/// The format: lines starting with `#` are comments; surrogates are separated by blank lines;
/// the first line of each is `<domain>/<name> <content type>` and the rest is the source. A
/// surrogate is named by the last path segment of its first token, so
/// `google-analytics.com/analytics.js application/javascript` defines `analytics.js`.
public struct Surrogates: Sendable, Hashable {
    /// One replacement script.
    public struct Surrogate: Sendable, Hashable {
        /// The name a tds rule's `surrogate` field uses, for example `analytics.js`.
        public var name: String
        /// The first token of the header line, for example `google-analytics.com/analytics.js`.
        public var path: String
        /// The content type, for example `application/javascript`.
        public var contentType: String
        /// The script, its lines joined with `\n`, without a trailing newline.
        public var source: String

        /// Creates a surrogate.
        public init(name: String, path: String, contentType: String, source: String) {
            self.name = name
            self.path = path
            self.contentType = contentType
            self.source = source
        }

        /// A `data:` URL serving the script, the form in which extensions redirect to it:
        /// `data:application/javascript;base64,…`.
        public var dataURL: String {
            "data:\(contentType);base64," + Base64.encode(Array(source.utf8))
        }
    }

    /// The surrogates in file order.
    public private(set) var surrogates: [Surrogate]
    /// Blocks that could not be read, with their line.
    public private(set) var warnings: [InputWarning]
    private var indexByName: [String: Int]

    /// Creates a set of surrogates; a later one with the same name replaces an earlier one.
    public init(_ surrogates: [Surrogate] = []) {
        self.surrogates = []
        self.warnings = []
        self.indexByName = [:]
        for surrogate in surrogates { add(surrogate) }
    }

    /// The surrogate named `name`.
    public subscript(name: String) -> Surrogate? {
        indexByName[name].map { surrogates[$0] }
    }

    /// Whether there is a surrogate named `name`.
    public func contains(_ name: String) -> Bool { indexByName[name] != nil }

    /// Reads surrogates.txt. Never fails: a block whose header cannot be read is skipped and
    /// reported in ``warnings``.
    public init(parsing text: String, file: String? = nil) {
        self.init()
        var header: (path: Substring, contentType: Substring)?
        var body: [Substring] = []
        var isSkippingBlock = false

        func finishBlock() {
            if let header {
                let name = header.path.split(separator: "/").last ?? header.path
                add(Surrogate(
                    name: String(name), path: String(header.path), contentType: String(header.contentType),
                    source: body.joined(separator: "\n")))
            }
            header = nil
            body = []
            isSkippingBlock = false
        }

        var lineNumber = 0
        // A UTF-8 byte order mark, which some editors write, is not part of the first line.
        let text = text.droppingByteOrderMark()
        // "\r\n" is one Character in Swift, so it has to be named as a separator of its own.
        for line in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            lineNumber += 1
            if line.allSatisfy({ $0 == " " || $0 == "\t" }) {
                finishBlock()
            } else if header != nil {
                body.append(line)
            } else if !isSkippingBlock && !line.hasPrefix("#") {
                let tokens = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
                if tokens.count == 2, tokens[0].contains("/"), tokens[1].contains("/") {
                    header = (tokens[0], tokens[1])
                } else {
                    warnings.append(InputWarning(
                        file: file, line: lineNumber,
                        message: "expected \"<domain>/<name> <content type>\" to start a surrogate; block skipped"))
                    isSkippingBlock = true
                }
            }
        }
        finishBlock()
    }

    private mutating func add(_ surrogate: Surrogate) {
        if let index = indexByName[surrogate.name] {
            surrogates[index] = surrogate
        } else {
            indexByName[surrogate.name] = surrogates.count
            surrogates.append(surrogate)
        }
    }
}
