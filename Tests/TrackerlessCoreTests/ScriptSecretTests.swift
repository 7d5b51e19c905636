import Testing
import TrackerlessCore

@Suite("Script secrets")
struct ScriptSecretTests {
    @Test("A random secret is 32 lowercase hex digits and new each time")
    func random() {
        let first = ScriptSecret.random()
        let second = ScriptSecret.random()
        #expect(first.value.count == 32)
        #expect(first.value.allSatisfy { "0123456789abcdef".contains($0) })
        #expect(first != second)
        #expect(!first.isMarker)
    }

    @Test("Hex text is checked and lowercased")
    func hex() {
        #expect(ScriptSecret(hex: "0123456789ABCDEF0123456789abcdef")?.value == "0123456789abcdef0123456789abcdef")
        #expect(ScriptSecret(hex: "0123456789abcdef") == nil)
        #expect(ScriptSecret(hex: "0123456789abcdef0123456789abcdeg") == nil)
        #expect(ScriptSecret(hex: ScriptSecret.marker.value) == nil)
    }

    @Test("The marker is as long as a secret, and inserted(into:) replaces every occurrence")
    func marker() throws {
        #expect(ScriptSecret.marker.value.count == ScriptSecret.length)
        let secret = try #require(ScriptSecret(hex: "00112233445566778899aabbccddeeff"))
        let source = "var a = \"\(ScriptSecret.marker.value)\"; var b = \"\(ScriptSecret.marker.value)\";"
        #expect(secret.inserted(into: source) == "var a = \"00112233445566778899aabbccddeeff\"; var b = \"00112233445566778899aabbccddeeff\";")
    }

    @Test("A secret matches its own text only; the marker matches nothing, not even itself")
    func matches() throws {
        let secret = try #require(ScriptSecret(hex: "00112233445566778899aabbccddeeff"))
        #expect(secret.matches("00112233445566778899aabbccddeeff"))
        #expect(!secret.matches("00112233445566778899aabbccddeefe"))
        #expect(!secret.matches("00112233445566778899aabbccddeef"))
        #expect(!secret.matches(""))
        #expect(!ScriptSecret.marker.matches(ScriptSecret.marker.value))
    }

    @Test("Descriptions do not give the secret away")
    func redacted() throws {
        let secret = try #require(ScriptSecret(hex: "00112233445566778899aabbccddeeff"))
        #expect(!"\(secret)".contains("8899aabb"))
    }
}
