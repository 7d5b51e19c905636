/// Fields kept in a ``FieldBox``: empty when made with no argument, and able to say so (an empty
/// set of fields needs no box).
protocol BoxedFields: Hashable, Sendable {
    init()
    /// Whether every field is absent.
    var isEmpty: Bool { get }
}
