'use strict';
// Style values page script sets beyond url() and @import: image-set()'s and -webkit-image-set()'s
// bare strings, a FontFace's source, and CSS Typed OM values (CSSStyleValue.parse and parseAll,
// strings) given to a style property map's set and append (an element's attributeStyleMap, a
// style rule's styleMap); and url() and @import as the CSS tokenizer also reads them (escaped
// names, a comment before @import's string, a url() the end of the text cuts). In script mode each
// URL the resolver blocks loads from no network and is reported blocked; the rest is written as
// the page gave it.

const test = require('node:test');
const assert = require('node:assert/strict');
const { openBrowser, reports, helpers, network, stated } = require('./fake-browser.js');

const skip = helpers.missing([]);

test('script mode: image-set() strings, escaped url() and @import, a comment before @import\'s string and a cut url() load nothing blocked', { skip: skip || false }, async () => {
  const browser = openBrowser();
  browser.run(`
    var div = document.createElement('div');
    div.style.cssText = 'background-image: image-set("https://tracker.test/set-1x.gif" 1x, url(https://tracker.test/set-url.gif) 2x, ' +
      '"https://cdn.example/set-kept.gif" 3x type("image/png"))';
    var written = div.style.cssText;
    div.style.setProperty('background-image', "-webkit-image-set('https://tracker.test/webkit-set.gif' 1x)");
    var sheet = new CSSStyleSheet();
    sheet.replaceSync('.a { background-image: IMAGE-SET("https://tracker.test/sheet-set.gif" 1x) } ' +
      '.b { cursor: imag\\\\65-set("https://tracker.test/escaped-set.cur" 1x), auto }');
    div.style.backgroundImage = '\\\\75rl(https://tracker.test/escaped-url.gif)';
    div.style.cssText = 'background: url(https://tracker.test/cut.gif';
    sheet.replaceSync('@import/* a comment */"https://tracker.test/commented.css"; @\\\\69mport "https://tracker.test/escaped.css";');
  `);
  const events = await reports(browser);
  assert.deepEqual(network(browser), ['css https://cdn.example/set-kept.gif']);
  assert.equal(browser.run('written'), 'background-image: image-set("data:," 1x, url("data:,") 2x, "https://cdn.example/set-kept.gif" 3x type("image/png"))');
  assert.deepEqual(stated(events), [
    'blocked image https://tracker.test/set-1x.gif',
    'blocked image https://tracker.test/set-url.gif',
    'blocked image https://tracker.test/webkit-set.gif',
    'blocked image https://tracker.test/sheet-set.gif',
    'blocked image https://tracker.test/escaped-set.cur',
    'blocked image https://tracker.test/escaped-url.gif',
    'blocked image https://tracker.test/cut.gif',
    'blocked stylesheet https://tracker.test/commented.css',
    'blocked stylesheet https://tracker.test/escaped.css'
  ]);
});

test('script mode: a FontFace\'s source loads no blocked font; a buffer and a first-party source load as given', { skip: skip || false }, async () => {
  const browser = openBrowser();
  browser.run(`
    var face = new FontFace('x', 'url(https://tracker.test/face.woff2) format("woff2"), url(https://cdn.example/face.woff2)');
    document.fonts.add(face);
    var isFontFace = face instanceof FontFace && FontFace.name === 'FontFace' && FontFace.prototype.constructor === FontFace;
    var buffer = new FontFace('y', new ArrayBuffer(8));
    var reads = 0;
    var tricky = new FontFace('z', { toString: function () { reads += 1; return reads === 1 ? 'url(https://tracker.test/first.woff2)' : 'url(https://tracker.test/second.woff2)'; } });
    var withoutNew = null;
    try { FontFace('w', 'local(x)'); } catch (e) { withoutNew = e.constructor.name; }
  `);
  const events = await reports(browser);
  assert.deepEqual(network(browser), ['css https://cdn.example/face.woff2']);
  assert.equal(browser.run('isFontFace'), true);
  assert.equal(browser.run('reads'), 1);
  assert.equal(browser.run('withoutNew'), 'TypeError');
  assert.deepEqual(stated(events), ['blocked font https://tracker.test/face.woff2', 'blocked font https://tracker.test/first.woff2']);
});

test('script mode: CSS Typed OM values given to attributeStyleMap and a rule\'s styleMap load nothing blocked', { skip: skip || false }, async () => {
  const browser = openBrowser();
  browser.run(`
    var div = document.createElement('div');
    var map = div.attributeStyleMap;
    map.set('background-image', CSSStyleValue.parse('background-image', 'url(https://tracker.test/parsed.gif)'));
    map.append('background-image', ...CSSStyleValue.parseAll('background-image',
      'url(https://tracker.test/all.gif), url(https://cdn.example/all-kept.gif)'));
    map.set('background-image', 'url(https://tracker.test/string.gif)');
    new CSSStyleRule().styleMap.set('background-image',
      CSSStyleValue.parse('background-image', 'image-set("https://tracker.test/rule-set.gif" 1x)'));
    var kept = CSSStyleValue.parse('background-image', 'url(https://cdn.example/kept.gif)');
    map.set('background-image', kept);
    var reads = 0;
    map.set('background-image', { toString: function () { reads += 1; return reads === 1 ? 'url(https://tracker.test/first.gif)' : 'url(https://tracker.test/second.gif)'; } });
  `);
  const events = await reports(browser);
  assert.deepEqual(network(browser), ['css https://cdn.example/all-kept.gif', 'css https://cdn.example/kept.gif']);
  assert.equal(browser.run('reads'), 1);
  assert.deepEqual(stated(events), [
    'blocked image https://tracker.test/parsed.gif',
    'blocked image https://tracker.test/all.gif',
    'blocked image https://tracker.test/string.gif',
    'blocked image https://tracker.test/rule-set.gif',
    'blocked image https://tracker.test/first.gif'
  ]);
});

test('without blockInScript image-set(), FontFace and Typed OM values go to the browser as the page gave them', { skip: skip || false }, async () => {
  const browser = openBrowser({ blockInScript: false });
  browser.run(`
    var div = document.createElement('div');
    div.style.backgroundImage = 'image-set("https://tracker.test/set.gif" 1x)';
    new FontFace('x', 'url(https://tracker.test/face.woff2)');
    div.attributeStyleMap.set('background-image', CSSStyleValue.parse('background-image', 'url(https://tracker.test/typed.gif)'));
  `);
  assert.deepEqual(network(browser), [
    'css https://tracker.test/set.gif', 'css https://tracker.test/face.woff2', 'css https://tracker.test/typed.gif'
  ]);
});
