'use strict';
// Random pages (seeded): whatever a page loads, fails, adds and navigates, the messages keep the
// protocol's rules.
const test = require('node:test');
const assert = require('node:assert/strict');
const { createPage, SECRET } = require('./fake-page.js');

const TYPES = new Set(['script', 'image', 'stylesheet', 'subdocument', 'xmlhttprequest', 'font', 'media',
  'websocket', 'ping', 'object', 'other']);
const STATES = new Set(['loaded', 'failed', 'blocked', 'pending']);
const TAGS = [['script', 'src'], ['img', 'src'], ['iframe', 'src'], ['link', 'href'], ['video', 'src'], ['object', 'data']];
const INITIATORS = ['script', 'img', 'link', 'css', 'fetch', 'xmlhttprequest', 'beacon', 'iframe', 'other', 'video'];

// xorshift32: the same pages on every run.
function random(seed) {
  let state = seed >>> 0 || 1;
  return (n) => {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state % n;
  };
}

function checkMessages(page, settings, label) {
  const messages = page.messages();
  const interval = settings.batchInterval;
  const max = settings.maxEventsPerMessage;
  const seen = new Set();
  const outcomes = new Set();
  let lastTimed = -Infinity;
  messages.forEach((message, index) => {
    const where = `${label} message ${index}`;
    assert.deepEqual(Object.keys(message).filter((key) => key !== 'dropped'),
      ['trackerless', 'secret', 'script', 'page', 'seq', 'events'], where);
    assert.equal(message.trackerless, 1, where);
    assert.equal(message.secret, SECRET, where);
    assert.equal(message.script, 'inference', where);
    assert.equal(message.seq, index, where);
    assert.match(message.page.id, /^[0-9a-f]{16}$/, where);
    assert.equal(message.page.id, messages[0].page.id, where);
    assert.ok(message.events.length >= 1 && message.events.length <= max, where);
    if ('dropped' in message) { assert.ok(Number.isInteger(message.dropped) && message.dropped > 0, where); }
    assert.ok(Buffer.byteLength(JSON.stringify(message)) <= 256 * 1024, where);
    const at = page.received[index].at;
    if (!page.received[index].early) {
      assert.ok(at - lastTimed >= interval, `${where}: ${at - lastTimed} ms after the previous one`);
    }
    lastTimed = at;
    for (const event of message.events) {
      if (event.kind === 'navigation') {
        assert.deepEqual(Object.keys(event), ['kind', 'url'], where);
        continue;
      }
      assert.deepEqual(Object.keys(event), ['kind', 'url', 'type', 'state'], where);
      assert.equal(event.kind, 'request', where);
      assert.ok(TYPES.has(event.type), `${where}: type ${event.type}`);
      assert.ok(STATES.has(event.state), `${where}: state ${event.state}`);
      assert.match(event.url, /^https?:\/\//, where);
      assert.ok(Buffer.byteLength(event.url) <= 8192, where);
      const key = `${event.state} ${event.type} ${event.url}`;
      assert.ok(!seen.has(key), `${where}: ${key} reported twice`);
      seen.add(key);
      if (event.state === 'pending') {
        assert.ok(!outcomes.has(`${event.type} ${event.url}`), `${where}: ${key} after its outcome`);
      } else {
        outcomes.add(`${event.type} ${event.url}`);
      }
    }
  });
  return messages;
}

for (let seed = 1; seed <= 20; seed++) {
  test(`random page ${seed}: messages keep protocol v1's rules`, () => {
    const next = random(seed * 7919);
    const settings = {
      batchInterval: [10, 50, 100, 250][next(4)],
      maxEventsPerMessage: [1, 7, 200][next(3)]
    };
    const page = createPage({ bridge: ['webkit', 'android', 'webview2'][next(3)], settings }).start();
    // Messages a pagehide or a hidden page sends may come inside the interval.
    const markEarly = () => {
      for (let i = 0; i < page.received.length; i++) {
        if (page.received[i].early === undefined) { page.received[i].early = false; }
      }
    };
    const elements = [];
    const url = () => `https://h${next(6)}.example/${next(40)}${['', '.js', '.css', '.woff2', '.png'][next(5)]}`;
    for (let step = 0; step < 200; step++) {
      const action = next(100);
      if (action < 30) {
        const count = next(3) === 0 ? 1 + next(400) : 1 + next(5);
        const entries = [];
        for (let i = 0; i < count; i++) { entries.push({ name: url(), initiatorType: INITIATORS[next(INITIATORS.length)] }); }
        page.entries(entries);
      } else if (action < 50) {
        const [tag, attribute] = TAGS[next(TAGS.length)];
        const attributes = { [attribute]: url() };
        if (tag === 'link') { attributes.rel = ['stylesheet', 'preload', 'icon'][next(3)]; attributes.as = 'script'; }
        elements.push(page.append(tag, attributes));
      } else if (action < 65 && elements.length > 0) {
        page.fire(elements[next(elements.length)], next(2) === 0 ? 'load' : 'error');
      } else if (action < 70) {
        page.location.href = `https://site.example/page/${next(5)}`;
        if (next(2) === 0) { page.fireWindow('popstate'); }
      } else if (action < 72) {
        markEarly();
        const before = page.received.length;
        page.hide();
        for (let i = before; i < page.received.length; i++) { page.received[i].early = true; }
      } else if (action < 73) {
        markEarly();
        const before = page.received.length;
        page.fireWindow('pagehide');
        for (let i = before; i < page.received.length; i++) { page.received[i].early = true; }
        page.fireWindow('pageshow', { persisted: true });
      } else {
        page.advance(1 + next(300));
      }
      markEarly();
    }
    page.advance(100000);
    markEarly();
    checkMessages(page, settings, `seed ${seed}`);
  });
}
