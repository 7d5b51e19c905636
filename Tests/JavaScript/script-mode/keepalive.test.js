'use strict';
// blockKeepalive without blockInScript (the WebKitGTK browser, whose request hook never sees
// sendBeacon or a keepalive fetch, and whose rule lists change when the user leaves for a site
// whose protection is off): blocking.js decides sendBeacon and fetch with the tracker data, and
// leaves every other request to the host. From pagehide on, each report is posted at once, so
// that what the page's own pagehide handlers send reaches the host before the document is gone.

const test = require('node:test');
const assert = require('node:assert/strict');
const { openBrowser, reports, wait, helpers } = require('./fake-browser.js');

const skip = helpers.missing([]);

test('blockKeepalive: sendBeacon and keepalive fetch to a tracker reach no network; the rest is the host\'s, reported pending', { skip: skip || false }, async () => {
  const browser = openBrowser({ blockInScript: false, blockKeepalive: true });
  browser.run(`
    window.events = [];
    fetch('https://tracker.test/collect', { keepalive: true }).then(null, function (error) { events.push('fetch ' + error.name); });
    // Inherited, or behind a getter: read once, and what fetch gets is what the script read.
    fetch('https://tracker.test/inherited', Object.create({ keepalive: 1 })).then(null, function (error) { events.push('inherited ' + error.name); });
    var reads = 0;
    fetch('https://tracker.test/getter', { method: 'POST', get keepalive() { reads += 1; return reads > 1; } });
    events.push('getter read ' + reads);
    events.push('beacon ' + navigator.sendBeacon('https://tracker.test/beacon', 'v=1'));
    new Image().src = 'https://tracker.test/pixel.gif';
    fetch('https://cdn.example/data.json');
  `);
  const events = await reports(browser);
  assert.deepEqual(browser.network.map((request) => request.url), ['https://tracker.test/getter', 'https://cdn.example/data.json']);
  assert.deepEqual(browser.dom.log.beacons, []);
  assert.deepEqual(browser.dom.log.sources, [{ element: 'IMG', url: 'https://tracker.test/pixel.gif' }], 'the image is the host\'s to block');
  assert.deepEqual([...browser.global.events].sort(), ['beacon true', 'fetch TypeError', 'getter read 1', 'inherited TypeError']);
  assert.deepEqual(events.map((event) => `${event.state} ${event.type} ${event.url}`), [
    'blocked xmlhttprequest https://tracker.test/collect',
    'blocked xmlhttprequest https://tracker.test/inherited',
    'pending xmlhttprequest https://tracker.test/getter',
    'blocked ping https://tracker.test/beacon',
    'pending image https://tracker.test/pixel.gif',
    'pending xmlhttprequest https://cdn.example/data.json'
  ]);
});

test('without blockKeepalive (nor blockInScript): sendBeacon and fetch go out, reported pending', { skip: skip || false }, async () => {
  const browser = openBrowser({ blockInScript: false });
  browser.run(`
    fetch('https://tracker.test/collect', { keepalive: true });
    navigator.sendBeacon('https://tracker.test/beacon', 'v=1');
  `);
  const events = await reports(browser);
  assert.deepEqual(browser.network.map((request) => request.url), ['https://tracker.test/collect']);
  assert.deepEqual(browser.dom.log.beacons, ['https://tracker.test/beacon']);
  assert.deepEqual(events.map((event) => `${event.state} ${event.url}`), [
    'pending https://tracker.test/collect', 'pending https://tracker.test/beacon'
  ]);
});

test('from pagehide on, the page\'s unload beacons are posted at once, each in its own message; pageshow batches again', { skip: skip || false }, async () => {
  const browser = openBrowser({ blockInScript: false, blockKeepalive: true });
  browser.run(`
    EventTarget.prototype.addEventListener.call(window, 'pagehide', function () {
      navigator.sendBeacon('https://tracker.test/unload', 'v=1');
      fetch('https://tracker.test/last', { method: 'POST', keepalive: true }).then(null, function () {});
    });
    EventTarget.prototype.dispatchEvent.call(window, new Event('pagehide'));
  `);
  // No timer ran: both reports were posted synchronously, in pagehide.
  const posted = JSON.parse(JSON.stringify(browser.page.posted.map((message) => message.events)));
  assert.deepEqual(posted.map((events) => events.map((event) => `${event.state} ${event.url}`)), [
    ['blocked https://tracker.test/unload'], ['blocked https://tracker.test/last']
  ]);
  browser.run(`
    EventTarget.prototype.dispatchEvent.call(window, new Event('pageshow'));
    navigator.sendBeacon('https://tracker.test/a', '');
    navigator.sendBeacon('https://tracker.test/b', '');
  `);
  assert.equal(browser.page.posted.length, 2, 'batched again after pageshow');
  await wait(100);
  const events = await reports(browser);
  assert.equal(browser.page.posted.length, 3);
  assert.deepEqual(events.slice(2).map((event) => event.url), ['https://tracker.test/a', 'https://tracker.test/b']);
});

test('a visibilitychange to hidden posts at once, read with the captured getter whatever the page redefines', { skip: skip || false }, async () => {
  const browser = openBrowser({ blockInScript: false, blockKeepalive: true });
  browser.run(`
    // The page hides the state from us, then the browser hides the page.
    Object.defineProperty(document, 'visibilityState', { get: function () { return 'visible'; } });
    Object.defineProperty(Document.prototype, 'visibilityState', { get: function () { return 'visible'; } });
    EventTarget.prototype.addEventListener.call(document, 'visibilitychange', function () {
      navigator.sendBeacon('https://tracker.test/hidden', 'v=1');
    });
    document.hiddenByBrowser = true;
    EventTarget.prototype.dispatchEvent.call(document, new Event('visibilitychange'));
  `);
  // No timer ran: the report was posted synchronously, in visibilitychange.
  const posted = JSON.parse(JSON.stringify(browser.page.posted.map((message) => message.events)));
  assert.deepEqual(posted.map((events) => events.map((event) => `${event.state} ${event.url}`)), [
    ['blocked https://tracker.test/hidden']
  ]);
});
