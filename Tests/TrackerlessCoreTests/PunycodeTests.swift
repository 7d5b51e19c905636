import Testing
import TrackerlessCore

@Suite("Punycode")
struct PunycodeTests {
    /// RFC 3492 section 7.1 samples and common IDN labels.
    static let vectors: [(String, String)] = [
        ("bücher", "bcher-kva"), ("münchen", "mnchen-3ya"), ("ü", "tda"), ("食狮", "85x722f"), ("中国", "fiqs8s"),
        ("ليهمابتكلموشعربي؟", "egbpdaj6bu4bxfgehfvwxn"),
        ("他们为什么不说中文", "ihqwcrb4cv8a8dqg056pqjye"),
        ("他們爲什麽不說中文", "ihqwctvzc91f659drss3x8bo0yb"),
        ("почемужеонинеговорятпорусски", "b1abfaaepdrnnbgefbadotcwatmq2g4l"),
        ("3年B組金八先生", "3B-ww4c5e180e575a65lsy2b"),
        ("安室奈美恵-with-SUPER-MONKEYS", "-with-SUPER-MONKEYS-pc58ag80a8qai00g7n9n"),
        ("Hello-Another-Way-それぞれの場所", "Hello-Another-Way--fc4qua05auwb3674vfr0b"),
        ("ひとつ屋根の下2", "2-u9tlzr9756bt3uc0v"),
        ("MajiでKoiする5秒前", "MajiKoi5-783gue6qz075azm5e"),
        ("そのスピードで", "d9juau41awczczp"),
        ("abc", "abc-"),
        ("", ""),
    ]

    @Test("encodes", arguments: vectors)
    func encodes(unicode: String, punycode: String) {
        #expect(Punycode.encode(unicode) == punycode)
    }

    @Test("decodes", arguments: vectors)
    func decodes(unicode: String, punycode: String) {
        #expect(Punycode.decode(punycode) == unicode)
    }

    @Test("decoding refuses invalid input", arguments: ["é", "abc-!", "99999999999999", "a-z9999999999"])
    func decodingRefusesInvalidInput(input: String) {
        #expect(Punycode.decode(input) == nil)
    }

    @Test("whole domains", arguments: [
        ("bücher.de", "xn--bcher-kva.de"), ("BÜCHER.DE", "xn--bcher-kva.de"), ("Example.COM", "example.com"),
        ("www.食狮.公司.cn", "www.xn--85x722f.xn--55qx5d.cn"), ("食狮。中国", "xn--85x722f.xn--fiqs8s"),
        ("example.com.", "example.com."), ("", ""),
    ] as [(String, String?)])
    func domains(domain: String, expected: String?) {
        #expect(domain.punycodeEncodedDomain == expected)
    }
}
