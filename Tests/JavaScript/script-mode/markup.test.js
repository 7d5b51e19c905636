'use strict';
// Markup that page script hands the HTML parser (document.write into the page or into an
// about:blank frame, innerHTML, outerHTML, insertAdjacentHTML, setHTMLUnsafe,
// createContextualFragment, iframe.srcdoc): in script mode the elements it makes load no URL the
// resolver blocks; the rest of the markup, and markup without such a URL, stays as the page
// wrote it. Without blockInScript (a content blocker blocks) markup goes to the parser untouched.

const test = require('node:test');
const assert = require('node:assert/strict');
const { openBrowser, reports, helpers, network } = require('./fake-browser.js');

const skip = helpers.missing([]);

test('script mode: document.write of a tracker pixel, script and frame loads only what is not blocked; without blockInScript it goes to the parser untouched', { skip: skip || false }, async () => {
  const browser = openBrowser();
  browser.run(`
    document.write('<img src="https://tracker.test/pixel.gif?a=1&amp;b=2" alt="x"><img src="https://cdn.example/photo.jpg">');
    document.writeln('<script src="https://tracker.test/tag.js"></script><iframe src="https://tracker.test/frame.html"></iframe>');
    document.write('<p>', 'text', '</p>');
  `);
  const events = await reports(browser);
  assert.deepEqual(network(browser), ['image https://cdn.example/photo.jpg']);
  assert.equal(browser.dom.document.body.innerHTML, '<img alt="x"><img src="https://cdn.example/photo.jpg">' +
    '<script src="https://tracker.test/tag.js" type="text/x-trackerless-blocked"></script><iframe></iframe>\n<p>text</p>');
  assert.deepEqual(events.map((event) => `${event.state} ${event.type} ${event.url}`), [
    'blocked image https://tracker.test/pixel.gif?a=1&b=2',
    'blocked script https://tracker.test/tag.js',
    'blocked subdocument https://tracker.test/frame.html'
  ]);
  const unblocked = openBrowser({ blockInScript: false });
  unblocked.run(`document.write('<img src="https://tracker.test/pixel.gif">');`);
  assert.deepEqual(network(unblocked), ['image https://tracker.test/pixel.gif']);
});

test('script mode: a surrogate\'s script written by document.write runs the surrogate, fires load, and loads nothing', { skip: skip || false }, async () => {
  const browser = openBrowser();
  browser.run(`
    window.loaded = [];
    document.write('<script src="https://tracker.test/analytics.js" onload="loaded.push(1)"></script>');
    document.body.childNodes[document.body.childNodes.length - 1].onload = function () { loaded.push('load'); };
  `);
  const events = await reports(browser);
  assert.deepEqual(network(browser), []);
  assert.equal(browser.global.surrogateRuns, 1);
  assert.deepEqual([...browser.global.loaded], ['load']);
  assert.deepEqual(events, [{ kind: 'surrogate', url: 'https://tracker.test/analytics.js', surrogate: 'analytics.js' }]);
});

test('script mode: a whole document written (as into an about:blank frame after document.open), with its own <base href>', { skip: skip || false }, async () => {
  const browser = openBrowser();
  browser.run(`
    document.write('<!DOCTYPE html><html><head><base href="https://tracker.test/"></head>' +
      '<body><img src="collect.gif"><img src="https://cdn.example/kept.gif"></body></html>');
  `);
  const events = await reports(browser);
  assert.deepEqual(network(browser), ['image https://cdn.example/kept.gif']);
  assert.deepEqual(events.map((event) => event.url), ['https://tracker.test/collect.gif']);
});

test('script mode: innerHTML, outerHTML, insertAdjacentHTML, setHTMLUnsafe, createContextualFragment and srcdoc; markup with nothing blocked goes to the parser as written', { skip: skip || false }, async () => {
  const given = [];
  const browser = openBrowser({ before: (page) => recordInnerHTML(page, given) });
  browser.run(`
    var div = document.createElement('div');
    document.body.appendChild(div);
    div.innerHTML = '<img src="https://tracker.test/inner.gif"><video poster="https://tracker.test/poster.jpg" src="https://cdn.example/v.mp4"></video>';
    var span = document.createElement('span');
    div.appendChild(span);
    span.outerHTML = '<object data="https://tracker.test/flash.swf"></object>';
    div.insertAdjacentHTML('beforeend', '<input type="image" src="https://tracker.test/button.png"><input src="https://tracker.test/not-loaded.png">');
    div.setHTMLUnsafe('<link rel="stylesheet" href="https://tracker.test/style.css"><img srcset="https://cdn.example/a.jpg 1x, https://tracker.test/b.jpg 2x">');
    new Range().createContextualFragment('<script src="https://tracker.test/fragment.js"></script>');
    document.createElement('iframe').srcdoc = '<img src="https://tracker.test/srcdoc.gif"><img src="https://cdn.example/srcdoc.gif">';
    document.createElement('iframe').setAttribute('srcdoc', '<script src="https://tracker.test/srcdoc.js"></script>');
  `);
  const events = await reports(browser);
  assert.deepEqual(network(browser), ['media https://cdn.example/v.mp4', 'image https://cdn.example/srcdoc.gif']);
  assert.deepEqual(events.map((event) => `${event.type} ${event.url}`), [
    'image https://tracker.test/inner.gif',
    'image https://tracker.test/poster.jpg',
    'object https://tracker.test/flash.swf',
    'image https://tracker.test/button.png',
    'stylesheet https://tracker.test/style.css',
    'image https://tracker.test/b.jpg',
    'script https://tracker.test/fragment.js',
    'image https://tracker.test/srcdoc.gif',
    'script https://tracker.test/srcdoc.js'
  ]);
  assert.ok(events.every((event) => event.state === 'blocked'));
  // The first innerHTML, sanitized; then what has nothing to take out (scripts of innerHTML never
  // load; with scripting on, <noscript>'s content is text; a template's content is inert).
  assert.deepEqual(given, ['<img><video src="https://cdn.example/v.mp4"></video>']);
  const written = [
    '<IMG SRC=https://cdn.example/a.gif data-x=\'1\'><script src="https://tracker.test/never.js"></script>',
    '<noscript><img src="https://tracker.test/noscript.gif"></noscript>',
    '<p>no URL at all</p>'
  ];
  browser.global.written = written;
  browser.run(`
    for (var i = 0; i < written.length; i++) { div.innerHTML = written[i]; }
    var template = document.createElement('template');
    document.body.appendChild(template);
    template.innerHTML = '<img src="https://tracker.test/template.gif">';
  `);
  assert.deepEqual(given.slice(1), written.concat(['<img src="https://tracker.test/template.gif">']));
  assert.deepEqual(network(browser).slice(2), ['image https://cdn.example/a.gif']);
  assert.equal((await reports(browser)).length, events.length);
});

// Records what the browser's own innerHTML setter is handed (under blocking.js's wrapper), but
// for the inert templates blocking.js parses markup in.
function recordInnerHTML(page, given) {
  const { Element } = page.dom.globals;
  const own = Object.getOwnPropertyDescriptor(Element.prototype, 'innerHTML');
  Object.defineProperty(Element.prototype, 'innerHTML', {
    get: own.get,
    set(value) {
      if (this.nodeName !== 'TEMPLATE' || this.isConnected) { given.push(value); }
      own.set.call(this, value);
    },
    enumerable: true, configurable: true
  });
}
