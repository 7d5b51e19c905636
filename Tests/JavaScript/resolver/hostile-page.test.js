'use strict';
// blocking.js and every surrogate under a hostile page (../hostile-page.js): hooks on every key
// the protocol uses, toJSON, conversions, iteration and the built-ins, installed before the
// script starts (those a page could install then) and after it, with every queue overflowed and
// every bridge. The page must never see the secret nor a page id, and the messages must still
// reach the host whole.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const vm = require('node:vm');
const helpers = require('./helpers.js');
const hostile = require('../hostile-page.js');
const { createFakeDOM } = require('./fake-dom.js');

const skip = helpers.missing([]);
const BATCH_INTERVAL = 20;
const surrogateNames = fs.readdirSync(path.join(helpers.repoRoot, 'Surrogates')).filter((name) => name.endsWith('.js')).sort();

// A tracker whose scripts run a surrogate (the bundled analytics.js) and whose other requests
// are blocked in script.
function writeTDS() {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'trackerless-hostile-'));
  const owner = { name: 'Tracker Inc', displayName: 'Tracker' };
  const tds = {
    trackers: {
      'tracker.test': {
        domain: 'tracker.test', owner, default: 'block',
        rules: [{ rule: 'tracker\\.test/analytics\\.js', surrogate: 'analytics.js' }]
      }
    },
    entities: { 'Tracker Inc': { domains: ['tracker.test'], displayName: 'Tracker' } },
    domains: { 'tracker.test': 'Tracker Inc' },
    cnames: {}
  };
  fs.writeFileSync(path.join(folder, 'tds.json'), JSON.stringify(tds));
  return path.join(folder, 'tds.json');
}

const rendered = {};
function render(bridge, blockInScript) {
  const key = bridge + ' ' + blockInScript;
  if (rendered[key] === undefined) {
    rendered[key] = helpers.renderBlocking({ tds: writeTDS(), bridge, blockInScript, batchInterval: BATCH_INTERVAL });
  }
  return rendered[key];
}

const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// The host's side of each bridge, recording what it receives as the host would read it.
function channel(bridge) {
  const received = [];
  const postMessage = (message) => { received.push(message); };
  const globals = bridge === 'android' ? { trackerless: { postMessage } }
    : bridge === 'webview2' ? { chrome: { webview: { postMessage } } } : {};
  const messages = () => received.map((raw) => (typeof raw === 'string' ? JSON.parse(raw) : JSON.parse(JSON.stringify(raw))));
  return { received, globals, messages };
}

for (const blockInScript of [true, false]) {
for (const bridge of ['webkit', 'android', 'webview2']) {
  for (const when of ['before', 'after']) {
    const mode = blockInScript ? 'blocking in script' : 'reporting only (a content blocker blocks)';
    test(`${mode}, ${bridge} bridge, page hooks installed ${when} the script starts: the page never sees the secret or a page id`, { skip: skip || false }, async () => {
      const dom = createFakeDOM('https://site.example/page');
      const host = channel(bridge);
      const page = helpers.createPage(Object.assign({}, dom.globals, host.globals));
      if (bridge === 'webkit') { host.received = page.posted; }
      const run = (code) => vm.runInContext(code, page.context);
      if (when === 'before') { hostile.install(run, 'accessors'); }
      const { api } = helpers.runBlocking(render(bridge, blockInScript), page);
      hostile.install(run, 'all');

      // Every surrogate runs in the hostile page.
      for (const name of surrogateNames) { api.runSurrogate(name); }
      // What page script requests is reported (and blocked in script) through the queue that the
      // surrogate scripts then overflow.
      run(`
        fetch('https://tracker.test/f').then(null, function () {});
        var request = new XMLHttpRequest(); request.open('GET', 'https://tracker.test/x'); request.send();
        navigator.sendBeacon('https://tracker.test/b', '');
        var image = document.createElement('img'); image.src = 'https://tracker.test/i.png';
      `);
      // 2,100 surrogate scripts (from the page's HTML) overflow the queue of 2,000 events.
      for (let i = 0; i < 2100; i++) {
        const script = dom.document.createElement('script');
        dom.parserSetAttribute(script, 'src', `https://tracker.test/analytics.js?n=${i}`);
        dom.document.head.appendChild(script);
      }
      api.decide('https://tracker.test/analytics.js', 'https://site.example/', 'script');
      const start = Date.now();
      let count = -1;
      while (count !== (bridge === 'webkit' ? page.posted : host.received).length && Date.now() - start < 5000) {
        count = (bridge === 'webkit' ? page.posted : host.received).length;
        await wait(BATCH_INTERVAL * 3);
      }
      assert.deepEqual(hostile.leaks(run, [helpers.SECRET]), [], 'the page saw the secret');
      assert.deepEqual(hostile.events(run).slice(0, 3), [], 'the page was given events it could change');
      const messages = bridge === 'webkit' ? page.posted.map((m) => JSON.parse(JSON.stringify(m))) : host.messages();

      // The messages reached the host whole.
      assert.ok(messages.length >= 10, `${messages.length} messages`);
      const pageIds = new Set(messages.map((m) => m.page.id));
      assert.equal(pageIds.size, 1);
      assert.ok(messages.every((m) => m.secret === helpers.SECRET && m.trackerless === 1 && m.script === 'blocking'));
      assert.deepEqual(messages.map((m) => m.seq), messages.map((m, i) => i));
      assert.ok(messages.some((m) => m.dropped > 0), 'the queue overflowed');
      const kinds = new Set(messages.flatMap((m) => m.events.map((e) => `${e.kind} ${e.type || ''} ${e.state || e.surrogate}`)));
      assert.ok(kinds.has('surrogate  analytics.js'), [...kinds].join(', '));
      const state = blockInScript ? 'blocked' : 'pending';
      for (const type of ['xmlhttprequest', 'ping', 'image']) {
        assert.ok(kinds.has(`request ${type} ${state}`), [...kinds].join(', '));
      }

      assert.ok(hostile.seen(run).length > 0, 'the hooks ran');
      assert.deepEqual(hostile.leaks(run, [...pageIds]), [], 'the page saw the page id');
    });
  }
}
}
