'use strict';
// inference.js in the page world (Android, WebView2, or a WebKit host without an isolated world)
// under a hostile page (../hostile-page.js): hooks on every key the protocol uses, toJSON,
// conversions, iteration and the built-ins, installed before the script starts (those a page
// could install then) and after it, with the queue overflowed and every bridge. The page must
// never see the secret nor the page id, and the messages must still reach the host whole.

const test = require('node:test');
const assert = require('node:assert/strict');
const { createPage, SECRET } = require('./fake-page.js');
const hostile = require('../hostile-page.js');

const PAGE = 'https://site.example/article';

for (const bridge of ['webkit', 'android', 'webview2']) {
  for (const when of ['before', 'after']) {
    test(`${bridge} bridge, page hooks installed ${when} the script starts: the page never sees the secret or the page id`, () => {
      const page = createPage({ bridge, url: PAGE });
      if (when === 'before') { hostile.install(page.run, 'accessors'); }
      page.start();
      hostile.install(page.run, 'all');

      // Elements load, fail and stay pending; then 2,100 resources overflow the queue of 2,000.
      page.fire(page.append('script', { src: 'https://tracker.example/t.js' }), 'error');
      page.fire(page.append('img', { src: 'https://cdn.example/loaded.png' }), 'load');
      page.append('iframe', { src: 'https://frames.example/f' });
      page.location.href = PAGE + '#next';
      page.advance(100);
      const entries = [];
      for (let i = 0; i < 2100; i++) { entries.push({ name: `https://cdn.example/${i}.png`, initiatorType: 'img' }); }
      page.entries(entries);
      page.advance(100);
      page.hide();
      page.advance(100000);
      page.fireWindow('pagehide');

      const messages = page.messages();
      assert.ok(messages.length >= 10, `${messages.length} messages`);
      assert.ok(messages.every((m) => m.secret === SECRET && m.trackerless === 1 && m.script === 'inference'));
      assert.deepEqual(messages.map((m) => m.seq), messages.map((m, i) => i));
      assert.equal(messages[1].dropped, 100);
      const states = new Set(messages.flatMap((m) => m.events.map((e) => e.state || e.kind)));
      assert.deepEqual([...states].sort(), ['failed', 'loaded', 'navigation', 'pending']);
      const pageIds = new Set(messages.map((m) => m.page.id));
      assert.equal(pageIds.size, 1);

      assert.ok(hostile.seen(page.run).length > 0, 'the hooks ran');
      assert.deepEqual(hostile.leaks(page.run, [SECRET, ...pageIds]), []);
      assert.deepEqual(hostile.events(page.run).slice(0, 3), [], 'the page was given events it could change');
    });
  }
}
