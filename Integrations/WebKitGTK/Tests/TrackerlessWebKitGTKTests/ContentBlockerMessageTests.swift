import RequestHookKit
import Testing

/// The console message of a load a content filter blocked, read by the web-process extension
/// (`ContentBlockerMessage`), without WebKit.
@Suite("RequestHookKit: the content blocker's console message")
struct ContentBlockerMessageTests {
    static let page = "https://news.example/article?id=7"

    static func words(_ main: String, _ url: String) -> String {
        "Content blocker prevented frame displaying \(main) from loading a resource from \(url)"
    }

    @Test("WebKit's message names the blocked URL; the main document's must be the page's")
    func blockedURL() {
        let message = ContentBlockerMessage(text: Self.words(Self.page, "https://www.hotjar.com/c/a.gif?x=1&y=%20"), pageURL: Self.page)
        #expect(message?.url == "https://www.hotjar.com/c/a.gif?x=1&y=%20")
        #expect(message?.mainDocumentURL == Self.page)
        #expect(ContentBlockerMessage(text: Self.words(Self.page, "wss://www.hotjar.com/socket"), pageURL: nil)?.url == "wss://www.hotjar.com/socket")
        // Another page's message (a page that went away, a blocked main frame): not this page's.
        #expect(ContentBlockerMessage(text: Self.words("https://other.example/", "https://www.hotjar.com/a.gif"), pageURL: Self.page) == nil)
    }

    @Test("texts that are not WebKit's message name nothing", arguments: [
        "Content blocker promoted URL from http://news.example/a.gif to https",
        "content blocker prevented frame displaying https://news.example/article?id=7 from loading a resource from https://t.example/a",
        "Content blocker prevented frame displaying https://news.example/article?id=7 from loading a resource from ",
        "Content blocker prevented frame displaying https://news.example/article?id=7 from loading a resource from https://t.example/a b",
        "Content blocker prevented frame displaying https://news.example/article?id=7 from loading a resource from https://t.example/a\n",
        "Content blocker prevented frame displaying https://news.example/article?id=7 from loading a resource from https://t.éxample/a",
        "Content blocker prevented frame displaying https://news.example/article?id=7 from loading a resource from //t.example/a",
        "Content blocker prevented frame displaying https://news.example/article?id=7 from loading a resource from 1https://t.example/a",
        "Content blocker prevented frame displaying https://news.example/article?id=7",
        "Error: Content blocker prevented frame displaying https://news.example/article?id=7 from loading a resource from https://t.example/a",
        "Content blocker prevented frame displaying  https://news.example/article?id=7 from loading a resource from https://t.example/a",
    ])
    func notWebKitsMessage(text: String) {
        #expect(ContentBlockerMessage(text: text, pageURL: Self.page) == nil)
    }
}
