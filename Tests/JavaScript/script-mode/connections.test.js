'use strict';
// WebSocket, EventSource, Worker, SharedWorker, navigator.serviceWorker.register and
// audioWorklet.addModule, page script's other ways to load a URL: in script mode a blocked one
// reaches no network and fails as a load the content blocker stopped does; without
// blockInScript each is reported pending, and goes out.

const test = require('node:test');
const assert = require('node:assert/strict');
const { openBrowser, addBase, reports, wait, helpers } = require('./fake-browser.js');

const skip = helpers.missing([]);

test('script mode: a WebSocket to a tracker never connects; the page gets error, then close 1006, of a socket that never opened', { skip: skip || false }, async () => {
  const browser = openBrowser();
  browser.run(`
    window.seen = [];
    var socket = new WebSocket('wss://tracker.test/socket');
    seen.push('state ' + socket.readyState, 'instance ' + (socket instanceof WebSocket), 'url ' + socket.url);
    try { socket.send('x'); } catch (error) { seen.push('send ' + error.name); }
    socket.onopen = function () { seen.push('open'); };
    socket.onerror = function (event) { seen.push('onerror ' + event.type); };
    socket.addEventListener('close', function (event) { seen.push('close ' + event.code + ' ' + event.wasClean + ' state ' + socket.readyState); });
    var allowed = new WebSocket('wss://cdn.example/live');
  `);
  const events = await reports(browser);
  assert.deepEqual(browser.network, [{ url: 'wss://cdn.example/live', type: 'websocket' }]);
  assert.deepEqual([...browser.global.seen], [
    'state 0', 'instance true', 'url wss://tracker.test/socket', 'send InvalidStateError', 'onerror error', 'close 1006 false state 3'
  ]);
  assert.deepEqual(events.map((event) => `${event.state} ${event.type} ${event.url}`), [
    'blocked websocket wss://tracker.test/socket', 'pending websocket wss://cdn.example/live'
  ]);
});

test('script mode: an EventSource of a tracker fails (error, CLOSED) and reaches no network', { skip: skip || false }, async () => {
  const browser = openBrowser({ before: (page) => addBase(page, 'https://tracker.test/') });
  browser.run(`
    window.seen = [];
    var source = new EventSource('stream');
    source.addEventListener('error', function () { seen.push('error ' + source.readyState + ' ' + source.url); });
    new EventSource('https://cdn.example/stream');
  `);
  const events = await reports(browser);
  assert.deepEqual(browser.network, [{ url: 'https://cdn.example/stream', type: 'eventsource' }]);
  assert.deepEqual([...browser.global.seen], ['error 2 https://tracker.test/stream']);
  assert.deepEqual(events.map((event) => `${event.state} ${event.type} ${event.url}`), [
    'blocked xmlhttprequest https://tracker.test/stream', 'pending xmlhttprequest https://cdn.example/stream'
  ]);
});

// A first-party host that is a tracker's CNAME: the only way a worker's script (same origin as
// its page, or the browser refuses it) can be a tracker's.
test('script mode, on a tracker\'s CNAME: Worker, SharedWorker, serviceWorker.register and audioWorklet.addModule of the tracker load nothing', { skip: skip || false }, async () => {
  const browser = openBrowser({ url: 'https://metrics.site.example/' });
  browser.run(`
    window.seen = [];
    var worker = new Worker('/worker.js');
    worker.onerror = function () { seen.push('worker error'); };
    worker.addEventListener('error', function () { seen.push('worker error listener'); });
    var shared = new SharedWorker('/shared.js', 'name');
    shared.addEventListener('error', function () { seen.push('shared error'); });
    navigator.serviceWorker.register('/sw.js').then(null, function (error) { seen.push('register ' + error.name); });
    audioWorklet.addModule('https://tracker.test/worklet.js').then(null, function (error) { seen.push('addModule ' + error.name); });
  `);
  const events = await reports(browser);
  assert.deepEqual(browser.network, []);
  assert.deepEqual([...browser.global.seen].sort(), ['addModule AbortError', 'register TypeError', 'shared error', 'worker error', 'worker error listener']);
  assert.deepEqual(events.map((event) => `${event.state} ${event.type} ${event.url}`), [
    'blocked script https://metrics.site.example/worker.js',
    'blocked script https://metrics.site.example/shared.js',
    'blocked script https://metrics.site.example/sw.js',
    'blocked script https://tracker.test/worklet.js'
  ]);
});

test('script mode, on a site of its own: its workers and worklets load', { skip: skip || false }, async () => {
  const browser = openBrowser();
  browser.run(`
    new Worker('/worker.js');
    new SharedWorker('/shared.js');
    navigator.serviceWorker.register('/sw.js');
    audioWorklet.addModule('https://cdn.example/worklet.js');
  `);
  const events = await reports(browser);
  assert.deepEqual(browser.network.map((request) => `${request.type} ${request.url}`), [
    'worker https://site.example/worker.js', 'sharedworker https://site.example/shared.js',
    'serviceworker https://site.example/sw.js', 'worklet https://cdn.example/worklet.js'
  ]);
  assert.deepEqual(events.map((event) => `${event.state} ${event.url}`), ['pending https://cdn.example/worklet.js']);
});

test('without blockInScript: each of them goes out and is reported pending when to another host', { skip: skip || false }, async () => {
  const browser = openBrowser({ blockInScript: false });
  browser.run(`
    new WebSocket('wss://tracker.test/socket');
    new EventSource('https://tracker.test/stream');
    audioWorklet.addModule('https://tracker.test/worklet.js');
  `);
  await wait(20);
  const events = await reports(browser);
  assert.deepEqual(browser.network.map((request) => request.url), [
    'wss://tracker.test/socket', 'https://tracker.test/stream', 'https://tracker.test/worklet.js'
  ]);
  assert.deepEqual(events.map((event) => `${event.state} ${event.type} ${event.url}`), [
    'pending websocket wss://tracker.test/socket', 'pending xmlhttprequest https://tracker.test/stream',
    'pending script https://tracker.test/worklet.js'
  ]);
});
