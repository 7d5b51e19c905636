/// The checks of a `clickToLoad` event's members.
enum ClickToLoadEvent {
    /// An action is a Click-to-Load rule action of at most 256 bytes; a token is 16 lowercase
    /// hexadecimal digits, as the blocking script draws it.
    static func isValid(action: String, token: String) -> Bool {
        action.hasPrefix("block-ctl-") && action.utf8.count <= 256 && token.utf8.count == 16
            && token.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
}
