'use strict';
// Styles page script sets: a declaration's cssText, setProperty, backgroundImage and the other
// url-taking properties, element.style = text, the `style` attribute, a style sheet's insertRule,
// replace and replaceSync, a grouping rule's insertRule, and the text of a <style> (textContent,
// innerText, innerHTML, a text node appended or inserted, a string appended, a text node's data,
// nodeValue or textContent): in script mode each url() and @import the resolver blocks is
// replaced by url("data:,"), which loads from no network, and reported blocked; the rest of the
// CSS is written as the page gave it.

const test = require('node:test');
const assert = require('node:assert/strict');
const { openBrowser, addBase, reports, helpers, network, stated } = require('./fake-browser.js');

const skip = helpers.missing([]);

test('script mode: style declarations, element.style, the style attribute and style sheets load no blocked url() or @import', { skip: skip || false }, async () => {
  const browser = openBrowser();
  browser.global.escaped = 'url("https://tracker\\2e test/escaped.gif")';
  browser.run(`
    var div = document.createElement('div');
    div.style.cssText = 'color: red; background: url(https://tracker.test/css-text.gif) no-repeat';
    var written = div.style.cssText;
    div.style.setProperty('background-image', 'url("https://tracker.test/set-property.gif")', 'important');
    div.style.backgroundImage = "url('https://tracker.test/camel.gif')";
    div.style['background-image'] = 'url(https://tracker.test/dashed.gif)';
    div.style.listStyleImage = 'url(https://cdn.example/bullet.png)';
    div.style.cursor = 'url(https://tracker.test/cursor.cur), auto';
    div.style.backgroundImage = escaped;
    div.style = 'background-image: url(https://tracker.test/style-property.gif)';
    div.setAttribute('style', 'background: URL( https://tracker.test/style-attribute.gif )');
    var sheet = new CSSStyleSheet();
    sheet.insertRule('.a { background: url(https://tracker.test/rule.gif) }', 0);
    sheet.replaceSync('@import url(https://tracker.test/imported.css); @import "https://tracker.test/string.css"; ' +
      '@font-face { font-family: x; src: url(https://tracker.test/font.woff2) format("woff2") } ' +
      '.b { background: url(https://cdn.example/kept.gif) }');
    sheet.replace('.c { background: url(https://tracker.test/replace.gif) }');
    new CSSMediaRule().insertRule('.d { background-image: url(https://tracker.test/media.gif) }', 0);
  `);
  const events = await reports(browser);
  assert.deepEqual(network(browser), ['css https://cdn.example/bullet.png', 'css https://cdn.example/kept.gif']);
  assert.equal(browser.run('written'), 'color: red; background: url("data:,") no-repeat');
  assert.deepEqual(stated(events), [
    'blocked image https://tracker.test/css-text.gif',
    'blocked image https://tracker.test/set-property.gif',
    'blocked image https://tracker.test/camel.gif',
    'blocked image https://tracker.test/dashed.gif',
    'blocked image https://tracker.test/cursor.cur',
    'blocked image https://tracker.test/escaped.gif',
    'blocked image https://tracker.test/style-property.gif',
    'blocked image https://tracker.test/style-attribute.gif',
    'blocked image https://tracker.test/rule.gif',
    'blocked stylesheet https://tracker.test/imported.css',
    'blocked font https://tracker.test/font.woff2',
    // @import's strings are read after the url()s.
    'blocked stylesheet https://tracker.test/string.css',
    'blocked image https://tracker.test/replace.gif',
    'blocked image https://tracker.test/media.gif'
  ]);
});

test('script mode: the text of a <style> (textContent, innerText, innerHTML, text nodes appended or changed, strings appended) and markup\'s styles', { skip: skip || false }, async () => {
  const browser = openBrowser({ before: (page) => addBase(page, 'https://tracker.test/') });
  browser.run(`
    var style = document.createElement('style');
    style.textContent = '.a { background: url(text-content.gif) }';
    document.head.appendChild(style);
    var second = document.createElement('style');
    document.head.appendChild(second);
    second.appendChild(document.createTextNode('@import "text-node.css";'));
    second.insertBefore(document.createTextNode('.b { background: url(inserted.gif) }'), null);
    second.append('.c { background: url(appended.gif) }', document.createTextNode('.d { background: url(https://cdn.example/kept.gif) }'));
    second.innerHTML = '.e { background: url(inner-html.gif) }';
    second.innerText = '.f { background: url(inner-text.gif) }';
    var text = document.createTextNode('');
    second.appendChild(text);
    text.data = '.g { background: url(data.gif) }';
    text.nodeValue = '.h { background: url(node-value.gif) }';
    text.textContent = '.i { background: url(text.gif) }';
    var div = document.createElement('div');
    document.body.appendChild(div);
    div.innerHTML = '<style>.j { background: url(markup-style.gif) }</style><p style="background: url(markup-attribute.gif)">x</p>';
  `);
  const events = await reports(browser);
  assert.deepEqual(network(browser), ['css https://cdn.example/kept.gif']);
  assert.equal(browser.run('style.textContent'), '.a { background: url("data:,") }');
  assert.deepEqual(stated(events), [
    'blocked image https://tracker.test/text-content.gif',
    'blocked stylesheet https://tracker.test/text-node.css',
    'blocked image https://tracker.test/inserted.gif',
    'blocked image https://tracker.test/appended.gif',
    'blocked image https://tracker.test/inner-html.gif',
    'blocked image https://tracker.test/inner-text.gif',
    'blocked image https://tracker.test/data.gif',
    'blocked image https://tracker.test/node-value.gif',
    'blocked image https://tracker.test/text.gif',
    'blocked image https://tracker.test/markup-style.gif',
    'blocked image https://tracker.test/markup-attribute.gif'
  ]);
});

test('without blockInScript a style goes to the browser as the page wrote it', { skip: skip || false }, async () => {
  const browser = openBrowser({ blockInScript: false });
  browser.run(`
    var div = document.createElement('div');
    div.style.backgroundImage = 'url(https://tracker.test/kept.gif)';
    var style = document.createElement('style');
    style.textContent = '.a { background: url(https://tracker.test/style.gif) }';
  `);
  assert.deepEqual(network(browser), ['css https://tracker.test/kept.gif', 'css https://tracker.test/style.gif']);
});
