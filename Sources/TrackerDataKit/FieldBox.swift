/// Fields a value keeps out of line, in a box never changed once made (a change is a new box),
/// so that the value itself stays small: a tracker's metadata, a rule's rarer fields. Equal and
/// hashed by the fields, so the value's `Hashable` is what it was with them inline.
final class FieldBox<Fields: BoxedFields>: Sendable, Hashable {
    let fields: Fields

    private init(_ fields: Fields) { self.fields = fields }

    /// A box of `fields`, or nil when there is nothing to keep.
    static func make(_ fields: Fields) -> FieldBox? {
        fields.isEmpty ? nil : FieldBox(fields)
    }

    /// `box` with `change` made to a copy of its fields (the empty fields when there is none).
    static func changing(_ box: FieldBox?, _ change: (inout Fields) -> Void) -> FieldBox? {
        var fields = box?.fields ?? Fields()
        change(&fields)
        return make(fields)
    }

    static func == (left: FieldBox, right: FieldBox) -> Bool { left === right || left.fields == right.fields }

    func hash(into hasher: inout Hasher) { hasher.combine(fields) }
}
