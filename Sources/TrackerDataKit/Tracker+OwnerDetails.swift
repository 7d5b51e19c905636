extension Tracker {
    /// The fields of a tracker's owner besides its name and display name, which most owners
    /// have alone, kept in a ``FieldBox``.
    struct OwnerDetails: BoxedFields {
        var ownedBy: String?
        var privacyPolicy: String?
        var url: String?
        var localizedName: String?

        var isEmpty: Bool {
            ownedBy == nil && privacyPolicy == nil && url == nil && localizedName == nil
        }
    }
}
