'use strict';
// normalize() and a Range change a <style>'s text in WebKit's steps, each of which the style
// parses: normalize() appends a text node's data to the one before it before taking it out (that
// data twice for a moment), deleteContents, extractContents and surroundContents cut the
// boundary text nodes before taking the nodes between out, insertNode splits its start node (its
// head alone for a moment) before putting the node in. In script mode no text along the way
// loads a blocked URL: the style then gets its text after the change whole, without it. With
// nothing blocked the page's nodes change as the page asked.

const test = require('node:test');
const assert = require('node:assert/strict');
const { openBrowser, reports, helpers } = require('./fake-browser.js');
const { network, stated, setup: pageSetup } = require('./style-pages.js');

const skip = helpers.missing([]);
// `range(start, startOffset, end, endOffset)`; `datas(style)` its text nodes' data.
const setup = pageSetup + `
  function range(start, startOffset, end, endOffset) {
    var made = document.createRange();
    made.setStart(start, startOffset);
    made.setEnd(end, endOffset);
    return made;
  }
  function datas(style) { return style.childNodes.map(function (node) { return node.data; }); }
`;

test('script mode: normalize() loads no blocked @import from a text node\'s data, twice for a moment; with nothing blocked it merges the nodes', { skip: skip || false }, async () => {
  const browser = openBrowser();
  browser.run(setup + `
    // Joined: an unknown at-rule and an @import of no URL. The second node's data twice:
    // '@x rl(…); @import url(…); @import u'.
    var twice = styleOf(['@x ', 'rl(' + T + 'normalize.css); @import u']);
    document.documentElement.normalize();
    var kept = styleOf(['.a {', '', ' color: red }', ' .b { background: url(' + C + 'kept.gif) }']);
    var first = kept.firstChild;
    kept.normalize();
    var merged = kept.childNodes.length === 1 && kept.firstChild === first;
  `);
  const events = await reports(browser);
  assert.deepEqual(network(browser), ['css https://cdn.example/kept.gif']);
  assert.deepEqual(browser.run('datas(twice)'), ['@x rl(https://tracker.test/normalize.css); @import u']);
  assert.equal(browser.run('merged'), true);
  assert.equal(browser.run('kept.textContent'), '.a { color: red } .b { background: url(https://cdn.example/kept.gif) }');
  assert.deepEqual(stated(events), []);
});

test('script mode: deleteContents and extractContents of a range in a <style> load nothing blocked, finally or along the way', { skip: skip || false }, async () => {
  const browser = openBrowser();
  browser.run(setup + `
    var deleted = styleOf(['.a { background: u/**/rl(' + T + 'delete.gif) }']);
    range(deleted.firstChild, 18, deleted.firstChild, 22).deleteContents();
    var extracted = styleOf(['.b { background: ur', '/**/', 'l(' + T + 'extract.gif) }']);
    var fragment = range(extracted, 1, extracted, 2).extractContents();
    var copied = fragment.childNodes.length === 1 && fragment.firstChild.data === '/**/';
    // The start node cut, the end node still whole: '@import url(…);Z'; after: '@import ur'.
    var cut = styleOf(['@import urZ', 'l(' + T + 'cut.css);', 'Z']);
    range(cut.firstChild, 10, cut.lastChild, 1).deleteContents();
    var kept = styleOf(['.d { color: red }', ' .e { background: url(' + C + 'kept.gif) }']);
    var first = kept.firstChild;
    var keptRange = range(first, 4, kept.lastChild, 0);
    var taken = keptRange.extractContents();
    var stays = kept.firstChild === first && kept.childNodes.length === 2 && keptRange.startContainer === first;
  `);
  const events = await reports(browser);
  assert.deepEqual(network(browser), ['css https://cdn.example/kept.gif']);
  assert.deepEqual(browser.run('datas(deleted)'), ['.a { background: url("data:,") }']);
  assert.deepEqual(browser.run('datas(extracted)'), ['.b { background: url("data:,") }']);
  assert.equal(browser.run('copied'), true);
  assert.deepEqual(browser.run('datas(cut)'), ['@import ur']);
  assert.equal(browser.run('stays'), true);
  assert.deepEqual(browser.run('datas(kept)'), ['.d {', ' .e { background: url(https://cdn.example/kept.gif) }']);
  assert.deepEqual(browser.run('taken.childNodes.map(function (node) { return node.data; })'), [' color: red }', '']);
  assert.deepEqual(stated(events), [
    'blocked image https://tracker.test/delete.gif',
    'blocked image https://tracker.test/extract.gif'
  ]);
});

test('script mode: insertNode and surroundContents in a <style> load nothing blocked, with the start node\'s head alone or the node put in; with nothing blocked the nodes go in', { skip: skip || false }, async () => {
  const browser = openBrowser();
  browser.run(setup + `
    // Split after 'ur': the head alone joins the next node, 'url(…)'.
    var split = styleOf(['.a { background: ur/**/', 'l(' + T + 'split.gif) }']);
    range(split.firstChild, 19, split.firstChild, 19).insertNode(text('/* x */'));
    var joined = styleOf(['.b { background: ur']);
    range(joined, 1, joined, 1).insertNode(text('l(' + T + 'insert.gif) }'));
    var surrounded = styleOf(['.c { background: ur', '/**/', 'l(' + T + 'surround.gif) }']);
    var span = document.createElement('span');
    range(surrounded, 1, surrounded, 2).surroundContents(span);
    var wrapped = surrounded.lastChild === span && surrounded.childNodes.length === 2 && span.textContent === '/**/';
    var kept = styleOf(['.k { color: red }']);
    range(kept.firstChild, 4, kept.firstChild, 4).insertNode(text(' /* in */'));
    var around = document.createElement('span');
    range(kept.firstChild, 0, kept.firstChild, 4).surroundContents(around);
    var keptAround = around.parentNode === kept && around.textContent === '.k {';
  `);
  const events = await reports(browser);
  assert.deepEqual(network(browser), []);
  assert.deepEqual(browser.run('datas(split)'), ['.a { background: ur/* x *//**/l(https://tracker.test/split.gif) }']);
  assert.deepEqual(browser.run('datas(joined)'), ['.b { background: url("data:,") }']);
  assert.equal(browser.run('surrounded.firstChild.data'), '.c { background: url("data:,") }');
  assert.equal(browser.run('wrapped'), true);
  assert.equal(browser.run('keptAround'), true);
  assert.equal(browser.run('kept.textContent'), '.k { /* in */ color: red }');
  assert.deepEqual(stated(events), [
    'blocked image https://tracker.test/insert.gif',
    'blocked image https://tracker.test/surround.gif'
  ]);
});
