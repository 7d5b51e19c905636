/// WebKit refused to compile one of the benchmarked lists: the benchmark is then meaningless.
struct CompileFailure: Error, CustomStringConvertible {
    /// The harness job (`name#round#part`).
    let id: String
    /// WebKit's message.
    let message: String

    var description: String { "WebKit did not compile \(id): \(message)" }
}
