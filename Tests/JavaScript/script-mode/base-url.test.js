'use strict';
// A relative URL under `<base href="https://tracker.test/">` goes to the tracker: blocking.js
// resolves what page script loads, and the script elements it stands surrogates in for, against
// the document's base URL (read with the getter captured at start, whatever the page redefines
// later), not against location.href.

const test = require('node:test');
const assert = require('node:assert/strict');
const { openBrowser, addBase, reports, helpers } = require('./fake-browser.js');

const skip = helpers.missing([]);

test('script mode, under <base href> of a tracker: relative fetch, XHR, sendBeacon, new Image() and script, img and iframe src reach no network', { skip: skip || false }, async () => {
  const browser = openBrowser({ before: (page) => addBase(page, 'https://tracker.test/') });
  browser.run(`
    window.events = [];
    fetch('collect?v=1').then(null, function (error) { events.push('fetch ' + error.name); });
    var image = new Image();
    image.onerror = function () { events.push('image error'); };
    image.src = 'pixel.gif';
    var xhr = new XMLHttpRequest();
    xhr.addEventListener('error', function () { events.push('xhr error'); });
    xhr.open('GET', 'xhr');
    xhr.send();
    navigator.sendBeacon('beacon', 'v=1');
    document.createElement('iframe').setAttribute('src', 'frame.html');
    document.createElement('script').src = 'lib.js';
  `);
  const events = await reports(browser);
  assert.deepEqual(browser.network, []);
  assert.deepEqual(browser.dom.log.sources, [], 'no element was given a URL');
  assert.deepEqual(browser.dom.log.xhrSends.concat(browser.dom.log.beacons), []);
  assert.deepEqual([...browser.global.events].sort(), ['fetch TypeError', 'image error', 'xhr error']);
  assert.deepEqual(events.map((event) => `${event.state} ${event.type} ${event.url}`), [
    'blocked xmlhttprequest https://tracker.test/collect?v=1',
    'blocked image https://tracker.test/pixel.gif',
    'blocked xmlhttprequest https://tracker.test/xhr',
    'blocked ping https://tracker.test/beacon',
    'blocked subdocument https://tracker.test/frame.html',
    'blocked script https://tracker.test/lib.js'
  ]);
});

test('script mode: relative URLs under a first-party <base href> still go out', { skip: skip || false }, async () => {
  const browser = openBrowser({ before: (page) => addBase(page, 'https://cdn.example/assets/') });
  browser.run(`fetch('data.json'); new Image().src = 'photo.jpg';`);
  const events = await reports(browser);
  assert.deepEqual(browser.network, [{ url: 'https://cdn.example/assets/data.json', type: 'fetch' }]);
  assert.deepEqual(browser.dom.log.sources, [{ element: 'IMG', url: 'photo.jpg' }]);
  assert.deepEqual(events.map((event) => `${event.state} ${event.url}`), [
    'pending https://cdn.example/assets/data.json', 'pending https://cdn.example/assets/photo.jpg'
  ]);
});

test('a page that redefines document.baseURI and Node.prototype.baseURI after start does not move the base', { skip: skip || false }, async () => {
  const browser = openBrowser({ before: (page) => addBase(page, 'https://tracker.test/') });
  browser.run(`
    Object.defineProperty(document, 'baseURI', { get: function () { return 'https://site.example/'; }, configurable: true });
    Object.defineProperty(Node.prototype, 'baseURI', { get: function () { return 'https://site.example/'; }, configurable: true });
    fetch('collect').then(null, function () {});
    new Image().src = 'pixel.gif';
  `);
  const events = await reports(browser);
  assert.deepEqual(browser.network, []);
  assert.deepEqual(browser.dom.log.sources, []);
  assert.deepEqual(events.map((event) => event.url), ['https://tracker.test/collect', 'https://tracker.test/pixel.gif']);
});

for (const blockInScript of [true, false]) {
  const mode = blockInScript ? 'script mode' : 'a content blocker blocks (rules mode)';
  test(`${mode}: a relative analytics.js under <base href> of the tracker runs its surrogate, so the page's ga() works`, { skip: skip || false }, async () => {
    const browser = openBrowser({ blockInScript, before: (page) => addBase(page, 'https://tracker.test/') });
    // As the HTML parser adds it: no setter runs, the observer sees it.
    const parsed = browser.dom.document.createElement('script');
    const loads = [];
    parsed.onload = () => loads.push('parsed');
    browser.dom.parserSetAttribute(parsed, 'src', 'analytics.js?id=1');
    browser.dom.document.head.appendChild(parsed);
    await Promise.resolve();
    assert.equal(browser.global.surrogateRuns, 1);
    assert.equal(typeof browser.global.ga, 'function');
    // And one page script adds.
    browser.run(`
      var made = document.createElement('script');
      made.onload = function () { window.madeLoaded = true; };
      made.src = 'analytics.js?id=2';
      document.head.appendChild(made);
    `);
    const events = await reports(browser);
    assert.deepEqual(loads, ['parsed']);
    assert.equal(browser.global.surrogateRuns, 1, 'once per page');
    assert.equal(browser.global.madeLoaded, true);
    const surrogates = events.filter((event) => event.kind === 'surrogate').map((event) => event.url);
    assert.deepEqual(surrogates, ['https://tracker.test/analytics.js?id=1', 'https://tracker.test/analytics.js?id=2']);
    if (blockInScript) {
      assert.deepEqual(browser.dom.log.sources.filter((source) => source.url.includes('id=2')), [], 'the made one never loads');
    }
  });
}
