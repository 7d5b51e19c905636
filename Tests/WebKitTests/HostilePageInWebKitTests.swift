import Foundation
import Testing
import TrackerlessCore
import TrackerlessTestSupport

/// The page-world scripts under a hostile page in a real WebKit: blocking.js with the surrogates,
/// and inference.js in the page world too (as on a host without isolated worlds), both posting
/// to a page-world handler.
///
/// A user script that runs before them hooks every key the protocol uses with getters and
/// setters on `Object.prototype` and `Array.prototype` (but `trackerless`, the handler's name,
/// whose hook would hide the handler itself) and defines `toJSON`, `Symbol.toPrimitive` and
/// `Symbol.iterator`; the page's own first script then hooks `trackerless` and wraps the
/// built-ins (`Function.prototype.call`/`apply`/`bind`, `Reflect.apply`, `JSON`, the
/// `Array.prototype` methods, `Object.*`, the `String.prototype` methods). It adds 2,100
/// surrogate scripts that the rule list blocks, which overflows both scripts' queues. Each hook
/// keeps what it was given; the page's result record says whether any of it holds the secret,
/// the page ids it holds, and how many message events it reached.
@Suite(
    "A hostile page in WebKitGTK",
    .enabled(if: TrackerlessScriptsCommand.shouldRunInWebKit, TrackerlessScriptsCommand.skipMessage)
)
struct HostilePageInWebKitTests {
    static let secret = "00112233445566778899aabbccddeeff"
    static let handler = "trackerless"
    static let page = "https://hostile.example/"
    static let analyticsURL = "https://www.google-analytics.com/analytics.js"

    static let trackerData = #"""
        {
          "trackers": {
            "google-analytics.com": {
              "domain": "google-analytics.com", "owner": {"name": "Google LLC", "displayName": "Google"},
              "default": "block", "rules": [{"rule": "google-analytics\\.com/analytics\\.js", "surrogate": "analytics.js"}]
            }
          },
          "entities": {"Google LLC": {"domains": ["google-analytics.com"], "displayName": "Google"}},
          "domains": {"google-analytics.com": "Google LLC"},
          "cnames": {}
        }
        """#

    /// Runs at document start before the scripts: accessor hooks, and `__hostile` to report.
    static let hooks = """
        (function () {
          'use strict';
          var defineProperty = Object.defineProperty, setPrototypeOf = Object.setPrototypeOf;
          var reflectApply = Reflect.apply, construct = Reflect.construct;
          var ownNames = Object.getOwnPropertyNames, ownDescriptor = Object.getOwnPropertyDescriptor;
          var stringIndexOf = String.prototype.indexOf, regExpTest = RegExp.prototype.test, hexId = /^[0-9a-f]{16}$/;
          var seen = [];
          setPrototypeOf(seen, null);
          function record(value) { seen[seen.length] = value; }
          function hook(target, key) {
            defineProperty(target, key, { __proto__: null, configurable: true,
              get: function () { record(this); return undefined; },
              set: function (value) {
                record(this); record(value);
                defineProperty(this, key, { __proto__: null, value: value, writable: true, enumerable: true, configurable: true });
              } });
          }
          // Not yet `trackerless`, the handler's name: an Object.prototype.trackerless hides the
          // handler of window.webkit.messageHandlers (a named property is not visible where the
          // prototype chain has one), which only a page running before the scripts could do.
          var keys = ['secret', 'script', 'page', 'id', 'url', 'frame', 'isTopFrame', 'seq', 'events',
            'dropped', 'kind', 'type', 'state', 'surrogate', 'action', 'reason', 'tracker', 'owner', 'regex', 'scheme',
            'host', 'port', 'path', 'query', 'reported', 'outcome', 'pending', 'childList', 'subtree', 'attributes',
            'buffered', 'entryTypes', 'SCRIPT', 'DIV'];
          for (var i = 0; i < keys.length; i++) { hook(Object.prototype, keys[i]); hook(Array.prototype, keys[i]); }
          for (var n = 0; n < 2100; n++) { hook(Array.prototype, '' + n); }
          var recordThis = function () { record(this); return undefined; };
          var prototypes = [Object.prototype, Array.prototype, String.prototype, Number.prototype, Boolean.prototype];
          for (var p = 0; p < prototypes.length; p++) {
            defineProperty(prototypes[p], 'toJSON', { __proto__: null, configurable: true, writable: true, value: recordThis });
          }
          var valueOf = Object.prototype.valueOf, toString = Object.prototype.toString;
          defineProperty(Object.prototype, Symbol.toPrimitive, { __proto__: null, configurable: true, writable: true,
            value: function (hint) {
              record(this);
              var result = reflectApply(hint === 'string' ? toString : valueOf, this, []);
              return result !== null && typeof result === 'object' ? reflectApply(toString, this, []) : result;
            } });
          var values = Array.prototype[Symbol.iterator];
          Array.prototype[Symbol.iterator] = function () { record(this); return reflectApply(values, this, []); };

          // The built-ins, wrapped by the page's own first script (after the scripts' start).
          function wrap(owner, name) {
            var original = owner[name];
            if (typeof original !== 'function') { return; }
            owner[name] = function () {
              record(this);
              for (var a = 0; a < arguments.length; a++) { record(arguments[a]); }
              return new.target ? construct(original, arguments, new.target) : reflectApply(original, this, arguments);
            };
          }
          function wrapAll() {
            hook(Object.prototype, 'trackerless');
            hook(Array.prototype, 'trackerless');
            var table = [[Function.prototype, ['call', 'apply', 'bind']], [Reflect, ['apply', 'construct']],
              [JSON, ['stringify', 'parse']],
              [Array.prototype, ['push', 'slice', 'splice', 'concat', 'join', 'map', 'forEach', 'indexOf']],
              [Object, ['keys', 'assign', 'create', 'defineProperty', 'setPrototypeOf', 'getOwnPropertyDescriptor']],
              [String.prototype, ['slice', 'substring', 'indexOf', 'toLowerCase', 'split', 'charCodeAt', 'replace']],
              [RegExp.prototype, ['exec', 'test']], [Math, ['floor', 'random']], [WeakMap.prototype, ['get', 'set']],
              [window, ['setTimeout', 'clearTimeout']]];
            for (var t = 0; t < table.length; t++) {
              for (var m = 0; m < table[t][1].length; m++) { wrap(table[t][0], table[t][1][m]); }
            }
          }

          // What the hooks were given, searched through data properties (not into the DOM).
          function report(secret) {
            // Without prototypes: the hooks must not see the report either.
            var hexIds = [];
            setPrototypeOf(hexIds, null);
            var found = { __proto__: null, hooked: seen.length, secretSeen: false, hexIds: hexIds, eventsSeen: 0 };
            var visited = [];
            setPrototypeOf(visited, null);
            function search(value, depth) {
              if (typeof value === 'string') {
                if (reflectApply(stringIndexOf, value, [secret]) >= 0) { found.secretSeen = true; }
                if (value.length === 16 && reflectApply(regExpTest, hexId, [value])) { hexIds[hexIds.length] = value; }
                return;
              }
              if (value === null || typeof value !== 'object' || depth > 4) { return; }
              if (value === window || (typeof Node === 'function' && value instanceof Node)) { return; }
              for (var v = 0; v < visited.length; v++) { if (visited[v] === value) { return; } }
              visited[visited.length] = value;
              var kind = ownDescriptor(value, 'kind');
              if (kind && (kind.value === 'request' || kind.value === 'surrogate' || kind.value === 'navigation')) { found.eventsSeen += 1; }
              var names = ownNames(value);
              for (var k = 0; k < names.length; k++) {
                var descriptor = ownDescriptor(value, names[k]);
                if (descriptor && 'value' in descriptor) { search(descriptor.value, depth + 1); }
              }
            }
            var count = seen.length;
            for (var s = 0; s < count; s++) { search(seen[s], 0); }
            return found;
          }
          defineProperty(window, '__hostile', { __proto__: null, value: { __proto__: null, wrapAll: wrapAll, report: report } });
        })();
        """

    static let pageHTML = """
        <!DOCTYPE html><html><head><meta charset=utf-8><title>loading</title>
        <script>__hostile.wrapAll();</script></head><body>
        <script>
        for (var i = 0; i < 2100; i++) {
          var s = document.createElement('script'); s.src = '\(analyticsURL)?n=' + i; document.head.appendChild(s);
        }
        window.addEventListener('load', function () { setTimeout(function () { document.title = 'done'; }, 2500); });
        </script>
        </body></html>
        """

    static let run: Result<UserScriptHarness.PageResult, any Error> = Result {
        guard let harness = try UserScriptHarness.make() else {
            throw WebKitHarness.Failure.unavailable("WebKitGTK is not installed")
        }
        let scripts = try TrackerlessScriptsCommand.render(trackerData: trackerData, secret: secret)
        // A batch interval of a second, so that the 2,100 error events of the blocked scripts
        // overflow inference.js's queue however slowly WebKit delivers them.
        let interval = (from: #""batchInterval":100"#, to: #""batchInterval":1000"#)
        let blocking = scripts.blocking.replacingOccurrences(of: interval.from, with: interval.to)
        let inference = scripts.inference.replacingOccurrences(of: interval.from, with: interval.to)
        try #require(blocking != scripts.blocking && inference != scripts.inference, "no batchInterval setting to change")
        var spec = UserScriptHarness.Spec()
        spec.ruleLists = [scripts.rules]
        spec.scripts = [
            .init(source: hooks, world: nil), .init(source: blocking, world: nil), .init(source: inference, world: nil),
        ]
        spec.handlers = [(handler, nil)]
        spec.resources = [page: .html(pageHTML)]
        spec.pages = [.init(id: "hostile", url: page, timeout: 20, settle: 1.5, result: "__hostile.report('\(secret)')")]
        return try #require(try harness.run(spec)["hostile"])
    }

    @Test("Hooks on every protocol key, toJSON, conversions and the built-ins never see the secret, a page id or an event")
    func pageNeverSeesTheSecret() throws {
        let result = try Self.run.get()
        #expect(result.done, "the page never finished")
        let messages = result.messages.map { JSONNode($0.body) }
        var pageIDs: Set<String> = []
        for script in ["blocking", "inference"] {
            let ofScript = messages.filter { (try? $0["script"]?.string()) == script }
            #expect(ofScript.count >= 2, "\(script): \(ofScript.count) messages")
            #expect(ofScript.allSatisfy { (try? $0["secret"]?.string()) == Self.secret }, "\(script)")
            #expect(ofScript.contains { ((try? $0["dropped"]?.int()) ?? 0) > 0 }, "\(script): the queue never overflowed")
            pageIDs.formUnion(ofScript.compactMap { try? $0["page"]?["id"]?.string() })
        }
        #expect(pageIDs.count == 2)
        #expect(try result["hooked"]?.int() ?? 0 > 0, "the hooks never ran")
        #expect(try result["secretSeen"]?.bool() == false, "a hook saw the secret")
        let seenIDs = Set(try result["hexIds"]?.stringArray() ?? [])
        #expect(seenIDs.isDisjoint(with: pageIDs), "hooks saw page ids \(seenIDs.intersection(pageIDs))")
        #expect(try result["eventsSeen"]?.int() == 0, "hooks were given message events")
        #expect(!result.requested(Self.analyticsURL + "?n=0"))
    }
}
