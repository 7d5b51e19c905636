'use strict';
// The text of a <style> is the data of its text nodes joined, parsed again at each change: a
// url() can come from appendData, insertData, replaceData or deleteData of its text node, from
// a node's data joined to its neighbours' (data, nodeValue, splitText's head before its tail
// comes back, a node taken out), and from several nodes at once (a fragment; append, prepend,
// before, after, replaceWith, insertBefore, replaceChildren, insertAdjacentText). In script mode
// none loads a blocked URL: a node's own blocked URLs go first, and a style whose joined text
// would still load one gets that text whole, without it. With nothing blocked the page's nodes
// stay as the page put them.

const test = require('node:test');
const assert = require('node:assert/strict');
const { openBrowser, reports, helpers } = require('./fake-browser.js');
const { network, stated, setup: pageSetup } = require('./style-pages.js');

const skip = helpers.missing([]);
const setup = pageSetup + `
  function fragment(parts) {
    var made = document.createDocumentFragment();
    for (var i = 0; i < parts.length; i++) { made.appendChild(text(parts[i])); }
    return made;
  }
`;

test('script mode: appendData, insertData and replaceData of a <style>\'s text node load no blocked url(); the node stays', { skip: skip || false }, async () => {
  const browser = openBrowser();
  browser.run(setup + `
    var style = styleOf(['']);
    var node = style.firstChild;
    node.appendData('.a { background: url(' + T + 'append-data.gif) }');
    node.insertData(0, '.b { background: url(' + T + 'insert-data.gif) } ');
    node.replaceData(0, 0, '.c { background: url(' + T + 'replace-data.gif) } ');
    node.appendData(' .d { background: url(' + C + 'kept.gif) }');
    var stays = style.firstChild === node && style.childNodes.length === 1;
  `);
  const events = await reports(browser);
  assert.deepEqual(network(browser), ['css https://cdn.example/kept.gif']);
  assert.equal(browser.run('stays'), true);
  assert.equal(browser.run('node.data'), '.c { background: url("data:,") } .b { background: url("data:,") } ' +
    '.a { background: url("data:,") } .d { background: url(https://cdn.example/kept.gif) }');
  assert.deepEqual(stated(events), [
    'blocked image https://tracker.test/append-data.gif',
    'blocked image https://tracker.test/insert-data.gif',
    'blocked image https://tracker.test/replace-data.gif'
  ]);
});

test('script mode: a url() joined across a <style>\'s text nodes (data, nodeValue, deleteData, splitText, a node taken out) loads nothing blocked', { skip: skip || false }, async () => {
  const browser = openBrowser();
  browser.run(setup + `
    // Neither part is a url() alone; joined, each is.
    var data = styleOf(['.a { background: ur', '']);
    data.lastChild.data = 'l(' + T + 'data.gif) }';
    var value = styleOf(['.b { background: ur', '']);
    value.lastChild.nodeValue = 'l(' + T + 'node-value.gif) }';
    var deleted = styleOf(['.c { background: u/**/rl(' + T + 'delete-data.gif) }']);
    deleted.firstChild.deleteData(18, 4);
    // splitText: the head alone, before the tail's node comes back, joins the next node.
    var split = styleOf(['.d { background: ur/**/', 'l(' + T + 'split-text.gif) }']);
    var tail = split.firstChild.splitText(19);
    var removed = styleOf(['.e { background: ur', '/**/', 'l(' + T + 'remove-child.gif) }']);
    removed.removeChild(removed.childNodes[1]);
    var gone = styleOf(['.f { background: ur', '/**/', 'l(' + T + 'remove.gif) }']);
    gone.childNodes[1].remove();
    var moved = styleOf(['.g { background: ur', '/**/', 'l(' + T + 'moved.gif) }']);
    document.body.appendChild(moved.childNodes[1]);
    var texts = [data, value, deleted, split, removed, gone, moved].map(function (style) { return style.textContent; });
  `);
  const events = await reports(browser);
  assert.deepEqual(network(browser), []);
  assert.deepEqual(JSON.parse(browser.run('JSON.stringify(texts)')), [
    '.a { background: url("data:,") }', '.b { background: url("data:,") }', '.c { background: url("data:,") }',
    '.d { background: ur/**/l(https://tracker.test/split-text.gif) }', '.e { background: url("data:,") }',
    '.f { background: url("data:,") }', '.g { background: url("data:,") }'
  ]);
  assert.equal(browser.run('tail.data'), '/**/');
  assert.deepEqual(stated(events), [
    'blocked image https://tracker.test/data.gif',
    'blocked image https://tracker.test/delete-data.gif',
    'blocked image https://tracker.test/moved.gif',
    'blocked image https://tracker.test/node-value.gif',
    'blocked image https://tracker.test/remove-child.gif',
    'blocked image https://tracker.test/remove.gif'
  ]);
});

test('script mode: a fragment or several nodes put into a <style> (appendChild, insertBefore, append, prepend, before, after, replaceWith, replaceChildren, insertAdjacentText) load nothing blocked; the rest goes where the page put it', { skip: skip || false }, async () => {
  const browser = openBrowser();
  browser.run(setup + `
    styleOf([]).appendChild(fragment(['.a { background: url(' + T + 'fragment.gif) }']));
    styleOf([]).appendChild(fragment(['.b { background: ur', 'l(' + T + 'fragment-joined.gif) }']));
    var before = styleOf(['.z {}']);
    before.insertBefore(fragment(['.c { background: ur', 'l(' + T + 'insert-before.gif) }']), before.firstChild);
    styleOf([]).append(text('.d { background: ur'), 'l(' + T + 'append.gif) }');
    styleOf(['l(' + T + 'prepend.gif) }']).prepend('.e { background: ur');
    styleOf(['l(' + T + 'before.gif) }']).firstChild.before(text('.f { background: ur'));
    styleOf(['.g { background: ur']).firstChild.after(fragment(['l(' + T + 'after.gif) }']));
    styleOf(['.h { background: ur', 'x']).lastChild.replaceWith('l(' + T + 'replace-with.gif) }');
    styleOf(['.z {}']).replaceChildren(fragment(['.i { background: ur', 'l(' + T + 'replace-children.gif) }']));
    styleOf(['l(' + T + 'adjacent.gif) }']).insertAdjacentText('afterBegin', '.l { background: ur');
    var kept = styleOf(['.j { color: red }']);
    var first = kept.firstChild;
    kept.append(fragment(['.k { background: ur', 'l(' + C + 'kept.gif) }']));
    kept.insertBefore(text('.m {} '), first);
    kept.replaceChild(text('.n {} '), kept.firstChild);
    kept.insertAdjacentText('afterbegin', '.o {} ');
    var stays = kept.childNodes[2] === first && kept.childNodes.length === 5;
  `);
  const events = await reports(browser);
  assert.deepEqual(network(browser), ['css https://cdn.example/kept.gif']);
  assert.equal(browser.run('stays'), true);
  assert.equal(browser.run('kept.textContent'), '.o {} .n {} .j { color: red }.k { background: url(https://cdn.example/kept.gif) }');
  assert.deepEqual(stated(events), [
    'blocked image https://tracker.test/adjacent.gif',
    'blocked image https://tracker.test/after.gif',
    'blocked image https://tracker.test/append.gif',
    'blocked image https://tracker.test/before.gif',
    'blocked image https://tracker.test/fragment-joined.gif',
    'blocked image https://tracker.test/fragment.gif',
    'blocked image https://tracker.test/insert-before.gif',
    'blocked image https://tracker.test/prepend.gif',
    'blocked image https://tracker.test/replace-children.gif',
    'blocked image https://tracker.test/replace-with.gif'
  ]);
});
