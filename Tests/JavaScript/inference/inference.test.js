'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { createPage, fillInference, SECRET } = require('./fake-page.js');
const hostile = require('../hostile-page.js');

const PAGE = 'https://site.example/article';
const TRACKER = 'https://tracker.example/t.js';

function request(url, type, state) {
  return { kind: 'request', url, type, state };
}

// Resource timing entries of `count` images, https://cdn.example/0.png, 1.png, …
function images(count) {
  return Array.from({ length: count }, (_, i) => ({ name: `https://cdn.example/${i}.png`, initiatorType: 'img' }));
}

for (const bridge of ['webkit', 'android', 'webview2']) {
  test(`${bridge} bridge: one message per protocol v1, posted after one batch interval`, () => {
    const page = createPage({ bridge, url: PAGE }).start();
    const script = page.append('script', { src: TRACKER });
    page.fire(script, 'load');
    page.advance(99);
    assert.equal(page.received.length, 0);
    page.advance(1);
    assert.equal(page.received.length, 1);
    if (bridge === 'android') {
      assert.equal(typeof page.received[0].raw, 'string');
    } else {
      assert.equal(typeof page.received[0].raw, 'object');
    }
    const [message] = page.messages();
    assert.match(message.page.id, /^[0-9a-f]{16}$/);
    assert.deepEqual(message, {
      trackerless: 1,
      secret: SECRET,
      script: 'inference',
      page: { id: message.page.id, url: PAGE, frame: PAGE, isTopFrame: true },
      seq: 0,
      events: [request(TRACKER, 'script', 'loaded')]
    });
    assert.deepEqual(Object.keys(message), ['trackerless', 'secret', 'script', 'page', 'seq', 'events']);
  });

  test(`${bridge} bridge: a missing channel makes no message and no exception`, () => {
    const page = createPage({ bridge, handler: false }).start();
    page.fire(page.append('img', { src: 'https://cdn.example/a.png' }), 'load');
    page.advance(1000);
    page.fireWindow('pagehide');
    assert.equal(page.received.length, 0);
  });

  test(`${bridge} bridge: a channel that throws does not break the page or later messages`, () => {
    const page = createPage({ bridge }).start();
    let calls = 0;
    const postMessage = () => { calls += 1; throw new Error('DataCloneError'); };
    if (bridge === 'webkit') { page.sandbox.webkit.messageHandlers.trackerless.postMessage = postMessage; }
    // The channel was taken at start: replacing the method afterwards changes nothing.
    page.entries([{ name: 'https://cdn.example/a.png', initiatorType: 'img' }]);
    page.advance(100);
    assert.equal(calls, 0);
    assert.equal(page.received.length, 1);
  });
}

test('none bridge: the script runs and posts nothing', () => {
  const page = createPage({ bridge: 'none' }).start();
  page.fire(page.append('script', { src: TRACKER }), 'error');
  page.advance(500);
  page.fireWindow('pagehide');
  assert.equal(page.received.length, 0);
});

test('webkit bridge: a handler whose postMessage throws makes post return false, not throw', () => {
  const page = createPage({ bridge: 'webkit', handler: false });
  let calls = 0;
  page.sandbox.webkit = { messageHandlers: { trackerless: { postMessage() { calls += 1; throw new Error('no'); } } } };
  page.start();
  page.entries([{ name: 'https://cdn.example/a.png', initiatorType: 'img' }]);
  page.advance(100);
  page.entries([{ name: 'https://cdn.example/b.png', initiatorType: 'img' }]);
  page.advance(100);
  assert.equal(calls, 2);
});

test('settings.handler names the WebKit handler and the Android object', () => {
  for (const bridge of ['webkit', 'android']) {
    const page = createPage({ bridge, settings: { handler: 'stats' } }).start();
    page.entries([{ name: 'https://cdn.example/a.png', initiatorType: 'img' }]);
    page.advance(100);
    assert.equal(page.messages().length, 1, bridge);
  }
});

test('1,000 resources in one interval: one message per interval, at most maxEventsPerMessage events each', () => {
  const page = createPage().start();
  const entries = images(1000);
  page.entries(entries);
  page.advance(1000);
  const messages = page.messages();
  assert.deepEqual(messages.map((m) => m.events.length), [200, 200, 200, 200, 200]);
  assert.deepEqual(messages.map((m) => m.seq), [0, 1, 2, 3, 4]);
  assert.deepEqual(page.received.map((r) => r.at), [100, 200, 300, 400, 500]);
  const urls = page.events().map((e) => e.url);
  assert.deepEqual(urls, entries.map((e) => e.name));
});

test('maxEventsPerMessage and batchInterval come from the settings', () => {
  const page = createPage({ settings: { maxEventsPerMessage: 3, batchInterval: 250 } }).start();
  const entries = [];
  for (let i = 0; i < 7; i++) { entries.push({ name: `https://cdn.example/${i}.css`, initiatorType: 'link' }); }
  page.entries(entries);
  page.advance(2000);
  assert.deepEqual(page.messages().map((m) => m.events.length), [3, 3, 1]);
  assert.deepEqual(page.received.map((r) => r.at), [250, 500, 750]);
});

test('settings of the wrong type or out of range fall back to defaults or limits', () => {
  const page = createPage({ settings: { maxEventsPerMessage: 'many', batchInterval: -5 } }).start();
  const entries = images(250);
  page.entries(entries);
  page.advance(10);
  assert.deepEqual(page.messages().map((m) => m.events.length), [200]);
});

test('events that keep coming make at most one message per interval', () => {
  const page = createPage().start();
  for (let i = 0; i < 100; i++) {
    page.entries([{ name: `https://cdn.example/${i}.png`, initiatorType: 'img' }]);
    page.advance(7);
  }
  page.advance(200);
  const times = page.received.map((r) => r.at);
  for (let i = 1; i < times.length; i++) { assert.ok(times[i] - times[i - 1] >= 100, `${times}`); }
  assert.equal(page.events().length, 100);
});

test('a request is reported once per state', () => {
  const page = createPage().start();
  const script = page.append('script', { src: TRACKER });
  page.fire(script, 'load');
  page.fire(script, 'load');
  page.entries([{ name: TRACKER, initiatorType: 'script' }, { name: TRACKER, initiatorType: 'script' }]);
  page.advance(100);
  page.entries([{ name: TRACKER, initiatorType: 'script' }]);
  page.advance(100);
  assert.deepEqual(page.events(), [request(TRACKER, 'script', 'loaded')]);
});

test('synthetic load and error events (a surrogate\'s stand-in load, a page\'s dispatchEvent) are not outcomes', () => {
  const page = createPage().start();
  const replaced = page.append('script', { src: TRACKER });
  page.fire(replaced, 'load', false);
  const faked = page.append('img', { src: 'https://cdn.example/faked.png' });
  page.fire(faked, 'error', false);
  page.advance(100);
  assert.equal(page.received.length, 0);
  page.fire(replaced, 'error');
  page.advance(100);
  assert.deepEqual(page.events(), [request(TRACKER, 'script', 'failed')]);
  page.fireWindow('pagehide');
  assert.deepEqual(page.messages()[1].events, [request('https://cdn.example/faked.png', 'image', 'pending')]);
});

test('an added element is pending until load or error, and pending is sent only at the window load event or pagehide', () => {
  const page = createPage().start();
  const loads = page.append('img', { src: 'https://cdn.example/loads.png' });
  const fails = page.append('script', { src: 'https://ads.example/ad.js' });
  page.append('iframe', { src: 'https://frames.example/never' });
  page.advance(1000);
  assert.equal(page.received.length, 0);
  page.fire(loads, 'load');
  page.fire(fails, 'error');
  page.advance(100);
  assert.deepEqual(page.events(), [
    request('https://cdn.example/loads.png', 'image', 'loaded'),
    request('https://ads.example/ad.js', 'script', 'failed')
  ]);
  page.fireWindow('pagehide');
  assert.equal(page.received.length, 2);
  assert.deepEqual(page.messages()[1].events, [request('https://frames.example/never', 'subdocument', 'pending')]);
});

test('at the window load event, an element with neither load nor error (a blocked frame) is reported pending; a later load still counts', () => {
  const page = createPage().start();
  const loads = page.append('img', { src: 'https://cdn.example/loads.png' });
  const frame = page.append('iframe', { src: 'https://ads.example/frame' });
  page.append('img', { src: 'https://cdn.example/lazy.png', loading: 'lazy' });
  page.fire(loads, 'load');
  page.fireWindow('load', { isTrusted: false });
  page.advance(100);
  assert.deepEqual(page.events(), [request('https://cdn.example/loads.png', 'image', 'loaded')], 'a synthetic load event is ignored');
  page.fireWindow('load');
  page.advance(100);
  assert.deepEqual(page.messages()[1].events, [request('https://ads.example/frame', 'subdocument', 'pending')]);
  page.fire(frame, 'load');
  page.fireWindow('pagehide');
  assert.deepEqual(page.messages()[2].events, [request('https://ads.example/frame', 'subdocument', 'loaded')]);
  assert.equal(page.received.length, 3);
});

test('pagehide sends at once; a pending request that loads later reports again with its new state', () => {
  const page = createPage().start();
  const frame = page.append('iframe', { src: 'https://frames.example/slow' });
  page.entries([{ name: 'https://cdn.example/a.png', initiatorType: 'img' }]);
  page.advance(30);
  page.fireWindow('pagehide');
  assert.deepEqual(page.received.map((r) => r.at), [30]);
  assert.deepEqual(page.events(), [
    request('https://cdn.example/a.png', 'image', 'loaded'),
    request('https://frames.example/slow', 'subdocument', 'pending')
  ]);
  assert.equal(page.timers.length, 0);
  page.fireWindow('pageshow', { persisted: true });
  page.fire(frame, 'load');
  page.fireWindow('pagehide');
  page.fireWindow('pagehide');
  assert.deepEqual(page.messages().map((m) => m.seq), [0, 1]);
  assert.deepEqual(page.messages()[1].events, [request('https://frames.example/slow', 'subdocument', 'loaded')]);
});

test('a page going hidden sends what is queued at once, unless a message went less than an interval ago', () => {
  const page = createPage().start();
  page.entries(images(1));
  page.advance(40);
  page.hide();
  assert.deepEqual(page.received.map((r) => r.at), [40]);
  page.entries([{ name: 'https://cdn.example/next.png', initiatorType: 'img' }]);
  page.advance(30);
  page.hide();
  assert.deepEqual(page.received.map((r) => r.at), [40]);
  page.advance(70);
  assert.deepEqual(page.received.map((r) => r.at), [40, 140]);
  page.hide();
  assert.equal(page.received.length, 2);
  assert.equal(page.timers.length, 0);
});

test('a loaded or failed request is never reported pending afterwards', () => {
  const page = createPage().start();
  const img = page.append('img', { src: 'https://cdn.example/a.png' });
  page.fire(img, 'error');
  page.append('img', { src: 'https://cdn.example/a.png' });
  page.fireWindow('pagehide');
  assert.deepEqual(page.events(), [request('https://cdn.example/a.png', 'image', 'failed')]);
});

test('every resource timing entry is a load, unless an error event was seen for the request', () => {
  // WebKit's entries of cross-origin resources carry no sizes, and it makes none for a request
  // its content blocker blocked; Chromium also makes entries for network errors.
  const page = createPage().start();
  const failing = page.append('script', { src: 'https://ads.example/ad.js' });
  page.fire(failing, 'error');
  page.entries([
    { name: 'https://opaque.example/collect', initiatorType: 'fetch', transferSize: 0 },
    { name: 'https://ads.example/ad.js', initiatorType: 'script', transferSize: 0 },
    { name: 'https://cached.example/lib.js', initiatorType: 'script', transferSize: 0, decodedBodySize: 5000 }
  ]);
  page.fire(page.append('img', { src: 'https://cdn.example/broken.png' }), 'load');
  page.entries([{ name: 'https://cdn.example/late-error.png', initiatorType: 'img' }]);
  page.fire(page.append('img', { src: 'https://cdn.example/late-error.png' }), 'error');
  page.advance(100);
  assert.deepEqual(page.events(), [
    request('https://ads.example/ad.js', 'script', 'failed'),
    request('https://opaque.example/collect', 'xmlhttprequest', 'loaded'),
    request('https://cached.example/lib.js', 'script', 'loaded'),
    request('https://cdn.example/broken.png', 'image', 'loaded'),
    request('https://cdn.example/late-error.png', 'image', 'loaded'),
    request('https://cdn.example/late-error.png', 'image', 'failed')
  ]);
});

test('initiatorType maps to Tracker Radar types', () => {
  const cases = [
    ['script', 'https://a.example/x', 'script'],
    ['img', 'https://a.example/x', 'image'],
    ['image', 'https://a.example/x', 'image'],
    ['input', 'https://a.example/x', 'image'],
    ['iframe', 'https://a.example/x', 'subdocument'],
    ['frame', 'https://a.example/x', 'subdocument'],
    ['xmlhttprequest', 'https://a.example/x', 'xmlhttprequest'],
    ['fetch', 'https://a.example/x', 'xmlhttprequest'],
    ['beacon', 'https://a.example/x', 'ping'],
    ['video', 'https://a.example/x', 'media'],
    ['audio', 'https://a.example/x', 'media'],
    ['track', 'https://a.example/x', 'media'],
    ['embed', 'https://a.example/x', 'object'],
    ['object', 'https://a.example/x', 'object'],
    ['css', 'https://a.example/bg.png', 'image'],
    ['css', 'https://a.example/f.WOFF2?v=3', 'font'],
    ['css', 'https://a.example/f.ttf#x', 'font'],
    ['link', 'https://a.example/site.css?v=1', 'stylesheet'],
    ['link', 'https://a.example/f.woff', 'font'],
    ['link', 'https://a.example/app.js', 'script'],
    ['link', 'https://a.example/manifest', 'other'],
    ['other', 'https://a.example/x', 'other'],
    ['navigation', 'https://a.example/y', 'other'],
    ['toString', 'https://a.example/z', 'other'],
    ['', 'https://a.example/w', 'other']
  ];
  for (const [initiatorType, url, type] of cases) {
    const page = createPage().start();
    page.entries([{ name: url, initiatorType }]);
    page.advance(100);
    assert.deepEqual(page.events(), [request(url, type, 'loaded')], `${initiatorType} ${url}`);
  }
});

test('a link entry takes the type of the element that asked for it', () => {
  const page = createPage().start();
  page.append('link', { rel: 'stylesheet', href: 'https://fonts.example/css2?family=X' });
  page.append('link', { rel: 'preload', as: 'script', href: 'https://cdn.example/app' });
  page.append('link', { rel: 'modulepreload', href: 'https://cdn.example/mod' });
  page.entries([
    { name: 'https://fonts.example/css2?family=X', initiatorType: 'link' },
    { name: 'https://cdn.example/app', initiatorType: 'link' },
    { name: 'https://cdn.example/mod', initiatorType: 'other' }
  ]);
  page.advance(100);
  assert.deepEqual(page.events(), [
    request('https://fonts.example/css2?family=X', 'stylesheet', 'loaded'),
    request('https://cdn.example/app', 'script', 'loaded'),
    request('https://cdn.example/mod', 'script', 'loaded')
  ]);
});

test('elements map to Tracker Radar types; elements that load nothing are ignored', () => {
  const page = createPage().start();
  const picture = page.append('picture', {});
  const video = page.append('video', {});
  const cases = [
    [page.append('script', { src: '/local.js' }), 'https://site.example/local.js', 'script'],
    [page.append('img', { src: 'https://a.example/i.gif' }), 'https://a.example/i.gif', 'image'],
    [page.append('input', { type: 'IMAGE', src: 'https://a.example/b.gif' }), 'https://a.example/b.gif', 'image'],
    [page.append('iframe', { src: 'https://a.example/f' }), 'https://a.example/f', 'subdocument'],
    [page.append('frame', { src: 'https://a.example/g' }), 'https://a.example/g', 'subdocument'],
    [page.append('link', { rel: 'Alternate StyleSheet', href: 'https://a.example/s' }), 'https://a.example/s', 'stylesheet'],
    [page.append('link', { rel: 'alternate\fstylesheet', href: 'https://a.example/s2' }), 'https://a.example/s2', 'stylesheet'],
    [page.append('link', { rel: 'preload', as: 'font', href: 'https://a.example/p' }), 'https://a.example/p', 'font'],
    [page.append('link', { rel: 'prefetch', as: 'fetch', href: 'https://a.example/q' }), 'https://a.example/q', 'xmlhttprequest'],
    [page.append('link', { rel: 'preload', href: 'https://a.example/r' }), 'https://a.example/r', 'other'],
    [page.append('audio', { src: 'https://a.example/a.mp3' }), 'https://a.example/a.mp3', 'media'],
    [page.append('source', { src: 'https://a.example/v.mp4' }, video), 'https://a.example/v.mp4', 'media'],
    [page.append('track', { src: 'https://a.example/t.vtt' }), 'https://a.example/t.vtt', 'media'],
    [page.append('embed', { src: 'https://a.example/e.swf' }), 'https://a.example/e.swf', 'object'],
    [page.append('object', { data: 'https://a.example/o.swf' }), 'https://a.example/o.swf', 'object']
  ];
  const ignored = [
    page.append('link', { rel: 'canonical', href: 'https://a.example/c' }),
    page.append('link', { rel: 'dns-prefetch', href: 'https://a.example/d' }),
    page.append('a', { href: 'https://a.example/anchor' }),
    page.append('input', { type: 'text', src: 'https://a.example/x' }),
    page.append('source', { src: 'https://a.example/pic.webp' }, picture),
    page.append('img', { src: 'data:image/gif;base64,R0lGOD' }),
    page.append('iframe', { src: 'about:blank' }),
    page.append('script', { src: 'blob:https://site.example/1' }),
    page.append('script', {})
  ];
  for (const [element] of cases) { page.fire(element, 'load'); }
  for (const element of ignored) { page.fire(element, 'load'); }
  page.fire(page.global, 'error');
  page.fireWindow('pagehide');
  assert.deepEqual(page.events(), cases.map(([, url, type]) => request(url, type, 'loaded')));
});

// A video with four sources: one of a type it cannot play (its error is unrequested), one that
// failed, the one it chose, and one it never reached. `hostile(page, video, sources)` runs before
// any event.
function mediaSources(page, hostile) {
  const video = page.append('video', {});
  video.play(['video/mp4']);
  video.choose('https://cdn.example/clip.mp4');
  const source = (attributes) => video.appendChild(page.element('source', attributes));
  const sources = [
    source({ src: 'https://ads.example/never.webm', type: 'video/x-unplayable' }),
    source({ src: 'https://ads.example/blocked.mp4', type: 'video/mp4' }),
    source({ src: 'https://cdn.example/clip.mp4', type: 'video/mp4' }),
    source({ src: 'https://ads.example/skipped.mp4' })
  ];
  if (hostile) { hostile(page, video, sources); }
  page.fire(sources[0], 'error');
  page.fire(sources[1], 'error');
  page.fireWindow('load');
  page.fireWindow('pagehide');
  return page.events();
}

const MEDIA_SOURCE_EVENTS = [
  request('https://ads.example/blocked.mp4', 'media', 'failed'),
  request('https://cdn.example/clip.mp4', 'media', 'pending')
];

test('a media element\'s sources count only when requested: one of a type it cannot play fires error unrequested, one it did not choose is not pending', () => {
  assert.deepEqual(mediaSources(createPage().start()), MEDIA_SOURCE_EVENTS);
});

// What a page (where the script runs in the page world: Android, WebView2) can redefine to change
// which source looks requested: every source playable, another one chosen, no parents, no tags
// (each element a <div>), every source's URL the chosen one. Run on the prototypes or, with
// `target`, on one element.
function redefineMedia(target) {
  return `(function (target) {
    var on = function (type) { return target || type.prototype; };
    Object.defineProperty(on(HTMLMediaElement), 'currentSrc', { configurable: true, get() { return 'https://ads.example/skipped.mp4'; } });
    Object.defineProperty(on(HTMLMediaElement), 'canPlayType', { configurable: true, value: function () { return 'probably'; } });
    Object.defineProperty(on(Node), 'parentNode', { configurable: true, get() { return null; } });
    Object.defineProperty(on(Element), 'tagName', { configurable: true, get() { return 'DIV'; } });
    Object.defineProperty(on(HTMLSourceElement), 'src', { configurable: true, get() { return 'https://cdn.example/clip.mp4'; } });
  })`;
}

test('the redefinitions would change which sources look requested', () => {
  const page = createPage().start();
  const video = page.append('video', {});
  page.run(redefineMedia())(null);
  assert.equal(page.run('(v) => v.tagName + " " + v.parentNode + " " + v.currentSrc + " " + v.canPlayType("video/x-unplayable")')(video),
    'DIV null https://ads.example/skipped.mp4 probably');
});

test('a page that redefines tagName, parentNode, currentSrc, src and canPlayType on the prototypes after the script starts does not change which sources it reports', () => {
  const page = createPage().start();
  page.run(redefineMedia())(null);
  assert.deepEqual(mediaSources(page), MEDIA_SOURCE_EVENTS);
});

test('a page that redefines them on the elements, before the script sees them, does not change which sources it reports', () => {
  const page = createPage().start();
  assert.deepEqual(mediaSources(page, (page, video, sources) => {
    for (const element of [video, ...sources]) { page.run(redefineMedia())(element); }
  }), MEDIA_SOURCE_EVENTS);
});

test('with the hostile page\'s accessor hooks installed before the script starts and the prototypes redefined after, the script reports the same sources', () => {
  const page = createPage();
  hostile.install(page.run, 'accessors');
  page.start();
  page.run(redefineMedia())(null);
  assert.deepEqual(mediaSources(page), MEDIA_SOURCE_EVENTS);
});

test('at pagehide, elements in the document whose outcome was never seen are pending, with their current URL', () => {
  const page = createPage().start();
  const container = page.element('div', {});
  const inner = page.element('img', { src: 'https://a.example/inner.png' });
  const deeper = page.element('span', {});
  const deepest = page.element('script', { src: 'https://a.example/deep.js' });
  deeper.children.push(deepest);
  container.children.push(inner, deeper);
  page.document.documentElement.appendChild(container);
  const changing = page.append('iframe', { src: 'https://a.example/one' });
  changing.setAttribute('src', 'https://a.example/two');
  page.fire(page.append('img', { src: 'https://a.example/loaded.png' }), 'load');
  page.append('img', { src: 'https://a.example/below-the-fold.png', loading: 'LAZY' });
  page.append('iframe', { src: 'https://a.example/lazy-frame', loading: 'lazy' });
  page.fireWindow('pagehide');
  assert.deepEqual(page.events(), [
    request('https://a.example/loaded.png', 'image', 'loaded'),
    request('https://a.example/inner.png', 'image', 'pending'),
    request('https://a.example/deep.js', 'script', 'pending'),
    request('https://a.example/two', 'subdocument', 'pending')
  ]);
});

test('a full queue drops events, counts them, and the next message says how many', () => {
  const page = createPage().start();
  const entries = images(2100);
  page.entries(entries);
  page.advance(100);
  let messages = page.messages();
  assert.equal(messages.length, 1);
  assert.equal(messages[0].dropped, 100);
  assert.deepEqual(Object.keys(messages[0]), ['trackerless', 'secret', 'script', 'page', 'seq', 'events', 'dropped']);
  page.advance(10000);
  messages = page.messages();
  assert.equal(messages.length, 10);
  assert.ok(messages.slice(1).every((m) => !('dropped' in m)));
  assert.equal(page.events().length, 2000);
  // Dropped requests were not marked as reported: seen again, they are reported.
  page.entries([{ name: 'https://cdn.example/2099.png', initiatorType: 'img' }]);
  page.advance(100);
  assert.deepEqual(page.messages()[10].events, [request('https://cdn.example/2099.png', 'image', 'loaded')]);
});

test('URLs the host cannot classify are left out; long URLs are cut to 8,192 UTF-8 bytes', () => {
  const page = createPage().start();
  const long = 'https://a.example/?' + 'x'.repeat(9000);
  const wide = 'https://b.example/#' + 'é'.repeat(3000) + '😀'.repeat(2000);
  const edge = 'https://c.example/#' + 'x'.repeat(8192 - 19 - 2) + '😀';
  page.entries([
    { name: 'data:text/css,body{}', initiatorType: 'link' },
    { name: 'blob:https://site.example/5', initiatorType: 'fetch' },
    { name: 'HTTPS://UPPER.example/', initiatorType: 'fetch' },
    { name: 'wss://socket.example/', initiatorType: 'other' },
    { name: long, initiatorType: 'img' },
    { name: wide, initiatorType: 'img' },
    { name: edge, initiatorType: 'img' },
    { name: 42, initiatorType: 'img' }
  ]);
  page.advance(100);
  const events = page.events();
  assert.deepEqual(events.map((e) => e.url.slice(0, 22)), [
    'HTTPS://UPPER.example/', 'wss://socket.example/', long.slice(0, 22), wide.slice(0, 22), edge.slice(0, 22)
  ]);
  assert.equal(events[2].url, long.slice(0, 8192));
  // Cut at the last whole code point within 8,192 UTF-8 bytes: é is 2 bytes, 😀 4 (2 units).
  assert.equal(events[3].url.length, 19 + 3000 + 2 * Math.floor((8192 - 19 - 6000) / 4));
  assert.equal(events[4].url.length, edge.length - 2);
  for (const event of events) {
    assert.ok(Buffer.byteLength(event.url) <= 8192);
    assert.ok([long, wide, edge, event.url].some((url) => url.startsWith(event.url)));
  }
});

test('a message stays under the host limit of 256 KiB, however long its URLs', () => {
  const page = createPage({ url: 'https://site.example/?' + 'q'.repeat(20000) }).start();
  const entries = [];
  for (let i = 0; i < 60; i++) { entries.push({ name: `https://cdn.example/${i}?` + 'x'.repeat(9000), initiatorType: 'img' }); }
  page.entries(entries);
  page.advance(10000);
  const sizes = page.received.map((r) => Buffer.byteLength(JSON.stringify(r.raw)));
  assert.ok(sizes.every((size) => size <= 256 * 1024), `${sizes}`);
  assert.ok(sizes.length >= 2 && sizes.length <= 8, `${sizes.length} messages`);
  assert.equal(page.events().length, 60);
  const [first] = page.messages();
  assert.equal(Buffer.byteLength(first.page.url), 8192);
  assert.equal(first.page.frame, first.page.url);
});

test('the page replacing JSON, Array.prototype.push, Function.prototype.call/apply, Object.keys and window.webkit after start changes nothing', () => {
  for (const bridge of ['webkit', 'android', 'webview2']) {
    const page = createPage({ bridge, url: PAGE }).start();
    const forged = [];
    page.run(`
      JSON.stringify = function () { throw new Error('page JSON'); };
      JSON.parse = function () { throw new Error('page JSON'); };
      window.JSON = { stringify: function () { return '{"forged":true}'; } };
      Array.prototype.push = function () { throw new Error('page push'); };
      Array.prototype[Symbol.iterator] = function () { throw new Error('page iterator'); };
      Function.prototype.call = function () { throw new Error('page call'); };
      Function.prototype.apply = function () { throw new Error('page apply'); };
      Reflect.apply = function () { throw new Error('page Reflect.apply'); };
      Object.keys = function () { return []; };
      Object.defineProperty = function () { throw new Error('page defineProperty'); };
      String.prototype.slice = function () { return 'page'; };
      String.prototype.indexOf = function () { return 0; };
      String.prototype.toLowerCase = function () { return 'page'; };
      Math.floor = function () { return 0; };
      Object.prototype.toJSON = function () { return 'page object'; };
      Array.prototype.toJSON = function () { return 'page array'; };
      Object.setPrototypeOf = function () { throw new Error('page setPrototypeOf'); };
    `);
    page.sandbox.webkit = { messageHandlers: { trackerless: { postMessage: (m) => forged.push(m) } } };
    page.sandbox.trackerless = { postMessage: (m) => forged.push(m) };
    page.sandbox.chrome = { webview: { postMessage: (m) => forged.push(m) } };
    const entries = images(2005);
    page.entries(entries);
    page.fire(page.append('link', { rel: 'stylesheet', href: 'https://cdn.example/s.css' }), 'error');
    page.append('iframe', { src: 'https://frames.example/f' });
    page.advance(100);
    page.fireWindow('pagehide');
    assert.equal(forged.length, 0, bridge);
    const messages = page.messages();
    assert.equal(messages.length, 2, bridge);
    assert.equal(messages[0].events.length, 200);
    assert.equal(messages[0].dropped, 6);
    assert.equal(messages[0].page.url, PAGE);
    assert.deepEqual(messages[0].events[0], request('https://cdn.example/0.png', 'image', 'loaded'));
    assert.equal(messages[1].seq, 1);
  }
});

test('a page that redefines window.webkit before the script runs cannot receive the messages through it', () => {
  // The template runs at document start, before any page script: this only checks that the
  // handler is looked up once, not on every post.
  const page = createPage({ bridge: 'webkit' });
  let lookups = 0;
  const handler = page.sandbox.webkit.messageHandlers.trackerless;
  page.sandbox.webkit = { get messageHandlers() { lookups += 1; return { trackerless: handler }; } };
  page.start();
  for (let i = 0; i < 3; i++) {
    page.entries([{ name: `https://cdn.example/${i}.png`, initiatorType: 'img' }]);
    page.advance(100);
  }
  assert.equal(lookups, 1);
  assert.equal(page.received.length, 3);
});

test('frames: page.url from a same-origin top, else the last ancestor origin, else the referrer', () => {
  const cases = [
    [{ top: 'https://site.example/home?q=1' }, '', 'https://site.example/home?q=1'],
    [{ top: 'cross-origin', ancestorOrigins: ['https://middle.example', 'https://news.example'] }, 'https://middle.example/frame', 'https://news.example'],
    [{ top: 'cross-origin' }, 'https://news.example/story', 'https://news.example/story'],
    [{ top: 'cross-origin', ancestorOrigins: [] }, '', '']
  ];
  for (const [frame, referrer, expected] of cases) {
    const page = createPage({ url: 'https://ads.example/frame.html', frame, referrer }).start();
    page.entries([{ name: 'https://ads.example/ad.png', initiatorType: 'img' }]);
    page.advance(100);
    const [message] = page.messages();
    assert.deepEqual(message.page, {
      id: message.page.id, url: expected, frame: 'https://ads.example/frame.html', isTopFrame: false
    });
  }
});

test('navigations in the top frame: popstate, hashchange, and pushState seen at the next flush', () => {
  const page = createPage({ url: 'https://site.example/' }).start();
  page.location.href = 'https://site.example/#comments';
  page.fireWindow('hashchange');
  page.advance(100);
  page.location.href = 'https://site.example/page/2';   // history.pushState: no event
  page.entries([{ name: 'https://cdn.example/2.png', initiatorType: 'img' }]);
  page.advance(100);
  page.location.href = 'https://site.example/';
  page.fireWindow('popstate');
  page.fireWindow('popstate');
  page.advance(100);
  assert.deepEqual(page.events(), [
    { kind: 'navigation', url: 'https://site.example/#comments' },
    request('https://cdn.example/2.png', 'image', 'loaded'),
    { kind: 'navigation', url: 'https://site.example/page/2' },
    { kind: 'navigation', url: 'https://site.example/' }
  ]);
  assert.deepEqual(page.messages().map((m) => m.page.url), [
    'https://site.example/#comments', 'https://site.example/page/2', 'https://site.example/'
  ]);
});

test('frames do not report navigations', () => {
  const page = createPage({ url: 'https://ads.example/f', frame: { top: 'https://site.example/' } }).start();
  page.location.href = 'https://ads.example/f#2';
  page.fireWindow('hashchange');
  page.advance(100);
  assert.equal(page.received.length, 0);
});

test('page ids are random 16 hex characters, also without crypto', () => {
  const ids = new Set();
  for (const crypto of [true, false, true, false]) {
    const page = createPage({ crypto }).start();
    page.entries([{ name: 'https://cdn.example/a.png', initiatorType: 'img' }]);
    page.advance(100);
    const id = page.messages()[0].page.id;
    assert.match(id, /^[0-9a-f]{16}$/);
    ids.add(id);
  }
  assert.equal(ids.size, 4);
});

test('the script leaks nothing to the page and survives a page without PerformanceObserver', () => {
  const page = createPage();
  const before = Object.keys(page.sandbox).sort();
  page.sandbox.PerformanceObserver = undefined;
  page.start();
  assert.deepEqual(Object.keys(page.sandbox).sort(), before);
  page.fire(page.append('script', { src: TRACKER }), 'error');
  page.advance(100);
  assert.deepEqual(page.events(), [request(TRACKER, 'script', 'failed')]);
});

test('settings that are not an object fall back to the defaults', () => {
  for (const settings of [null, 'webkit', [1, 2]]) {
    const page = createPage();
    page.source = fillInference({ settings });
    page.start();
    const entries = images(201);
    page.entries(entries);
    page.advance(99);
    assert.equal(page.received.length, 0);
    page.advance(1);
    assert.deepEqual(page.messages().map((m) => m.events.length), [200]);
  }
});

test('a bridge that throws while taking its channel leaves the page untouched and the script off', () => {
  const page = createPage();
  page.source = page.source.replace('return function post(message) {', 'throw new Error("bridge"); return function post(message) {');
  assert.notEqual(page.source, fillInference());
  assert.doesNotThrow(() => page.start());
  assert.equal(page.performanceObservers.length, 0);
});

test('a bad entry or element costs only itself; settings.debug sends what was caught to the console', () => {
  for (const debug of [false, true]) {
    const page = createPage({ settings: { debug } }).start();
    const hostile = { get name() { throw new Error('hostile entry'); }, initiatorType: 'img' };
    page.performanceObservers[0].callback({ getEntries: () => [hostile, { name: 'https://cdn.example/ok.png', initiatorType: 'img' }] });
    const broken = page.append('img', { src: 'https://cdn.example/x.png' });
    Object.defineProperty(broken, 'currentSrc', { get() { throw new Error('hostile element'); } });
    page.append('script', { src: 'https://cdn.example/s.js' });
    page.fireWindow('pagehide');
    assert.deepEqual(page.events(), [
      request('https://cdn.example/ok.png', 'image', 'loaded'),
      request('https://cdn.example/s.js', 'script', 'pending')
    ]);
    if (debug) {
      assert.deepEqual(page.warnings.map((w) => [w[0], w[1].message]), [
        ['[trackerless inference] resource timing:', 'hostile entry'],
        ['[trackerless inference] element:', 'hostile element']
      ]);
    } else {
      assert.deepEqual(page.warnings, []);
    }
  }
});
