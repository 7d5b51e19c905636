import ContentRuleList

/// `--webkit TARGET`: the WebKit the lists are built or checked for.
enum WebKitOption {
    /// The option's help line, shared by every command that takes it.
    static let help = """
      --webkit TARGET         the WebKit the lists are for: safari-15 (the default: the oldest
                              supported, whose lists every supported WebKit compiles with the same
                              meaning), safari-16, safari-17, safari-18, safari-26, webkitgtk-2.44 …
                              webkitgtk-2.54 (wpe-… the same), or newest
    """

    /// The target `--webkit` names, or ``WebKitTarget/oldest`` without the option.
    static func target(_ options: CommandLineArguments) throws(UsageError) -> WebKitTarget {
        guard let name = options["webkit"] else { return .oldest }
        guard let target = WebKitTarget(name: name) else {
            let names = WebKitTarget.all.map(\.name).joined(separator: ", ")
            throw UsageError("--webkit must name a supported WebKit (\(names), or webkitgtk-2.N from 2.44), not \"\(name.excerpt())\"")
        }
        return target
    }
}
