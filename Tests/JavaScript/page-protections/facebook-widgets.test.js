'use strict';
// Click-to-Load for the Facebook SDK's widgets in blocking.js: where block-ctl-fb blocks the SDK's
// script, the widget elements (class fb-like, fb-page, ...) become the placeholder, those already
// in the document and those added later; the user's click posts the click message; the host's
// answer puts the widgets back and adds the SDK's script again. Without a blocked SDK, or on
// Facebook's own site, widgets stay.

const test = require('node:test');
const assert = require('node:assert/strict');
const { createFakeDOM } = require('../resolver/fake-dom.js');
const { helpers, render, jsonFile } = require('./page.js');

const skip = helpers.missing([]);
const SDK = 'https://connect.facebook.net/en_US/sdk.js';

let rendered = null;
function script() {
  if (rendered === null) {
    const tds = jsonFile('tds.json', {
      trackers: {
        'facebook.net': {
          domain: 'facebook.net', owner: { name: 'Facebook, Inc.', displayName: 'Facebook' }, default: 'ignore',
          rules: [{ rule: 'facebook\\.net/[a-z_A-Z]+/sdk\\.js', action: 'block-ctl-fb' }]
        }
      },
      entities: { 'Facebook, Inc.': { domains: ['facebook.net', 'facebook.com'], displayName: 'Facebook' } },
      domains: { 'facebook.net': 'Facebook, Inc.', 'facebook.com': 'Facebook, Inc.' },
      cnames: {}
    });
    const privacyConfig = jsonFile('config.json', {
      features: {
        contentBlocking: { state: 'enabled', exceptions: [] },
        clickToLoad: { state: 'enabled', exceptions: [], settings: { 'Facebook, Inc.': { state: 'enabled', ruleActions: ['block-ctl-fb'] } } }
      },
      unprotectedTemporary: []
    });
    rendered = render({ tds, privacyConfig });
  }
  return rendered;
}

// The fake DOM with the class selectors the widget search uses.
function openPage(url) {
  const dom = createFakeDOM(url);
  const elementQuery = dom.globals.Element.prototype.querySelectorAll;
  function query(root, selector) {
    if (/^(script|iframe)\[src\]$/.test(selector)) { return elementQuery.call(root, selector); }
    const classes = selector.split(',').map((part) => part.replace(/^\./, ''));
    const found = [];
    const walk = (node) => {
      for (const child of node.childNodes) {
        const names = child.getAttribute ? (child.getAttribute('class') || '').split(/\s+/) : [];
        if (names.some((name) => classes.includes(name))) { found.push(child); }
        walk(child);
      }
    };
    walk(root);
    return found;
  }
  dom.globals.Element.prototype.querySelectorAll = function (selector) { return query(this, selector); };
  dom.globals.Document.prototype.querySelectorAll = function (selector) { return query(this, selector); };
  const page = helpers.createPage(dom.globals);
  Object.assign(page.global.location, { href: url });
  helpers.runBlocking(script(), page);
  return { page, dom };
}

function element(dom, name, attributes) {
  const node = dom.document.createElement(name);
  for (const [key, value] of Object.entries(attributes)) { dom.parserSetAttribute(node, key, value); }
  return node;
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

function click(dom, node, isTrusted) {
  const event = new dom.globals.Event('click');
  event.isTrusted = isTrusted;
  node.dispatchEvent(event);
}

function placeholders(dom) {
  return dom.document.head.childNodes.filter((node) => node.getAttribute && node.getAttribute('data-trackerless-click-to-load') !== null);
}

test('with the SDK blocked, widgets before and after it become placeholders; other elements stay', { skip: skip || false }, async () => {
  const { dom } = openPage('https://news.test/article');
  const like = element(dom, 'div', { class: 'fb-like', 'data-width': '450', 'data-href': 'https://news.test/' });
  const other = element(dom, 'div', { class: 'fb-root other' });
  dom.document.head.appendChild(like);
  dom.document.head.appendChild(other);
  await settle();
  assert.equal(dom.document.head.childNodes.includes(like), true, 'no SDK blocked yet: the widget stays');
  dom.document.head.appendChild(element(dom, 'script', { src: SDK }));
  await settle();
  const page = element(dom, 'div', { class: 'x fb-page' });
  dom.document.head.appendChild(page);
  await settle();
  assert.equal(dom.document.head.childNodes.includes(like), false);
  assert.equal(dom.document.head.childNodes.includes(page), false);
  assert.equal(dom.document.head.childNodes.includes(other), true);
  const boxes = placeholders(dom);
  assert.equal(boxes.length, 2);
  assert.equal(boxes[0].getAttribute('data-trackerless-click-to-load'), 'block-ctl-fb');
  assert.match(boxes[0].getAttribute('style'), /width:450px;/);
  assert.equal(boxes[0].childNodes[0].textContent, 'Load the embedded content from connect.facebook.net');
  assert.equal(boxes[0].childNodes[1].textContent,
    'Blocked by Trackerless: loading it lets Facebook, Inc. see that you visit this page.');
});

test("the user's click posts the message; the host's answer puts the widgets back and loads the SDK again", { skip: skip || false }, async () => {
  const { page, dom } = openPage('https://news.test/article');
  const widgets = [element(dom, 'div', { class: 'fb-comments' }), element(dom, 'div', { class: 'fb-video' })];
  for (const widget of widgets) { dom.document.head.appendChild(widget); }
  dom.document.head.appendChild(element(dom, 'script', { src: SDK }));
  await settle();
  const boxes = placeholders(dom);
  assert.equal(boxes.length, 2);
  click(dom, boxes[0].childNodes[0], false);
  const events = () => page.posted.flatMap((message) => message.events).filter((event) => event.kind === 'clickToLoad');
  assert.deepEqual(events(), [], "a page's click is no click of the user");
  click(dom, boxes[0].childNodes[0], true);
  assert.equal(events().length, 1);
  assert.equal(events()[0].url, SDK);
  assert.equal(events()[0].action, 'block-ctl-fb');
  const sources = dom.log.sources.length;
  dom.globals.EventTarget.prototype.dispatchEvent.call(
    page.global, new dom.globals.CustomEvent('trackerless-click-to-load', { detail: events()[0].token }));
  await settle();
  for (const widget of widgets) { assert.equal(dom.document.head.childNodes.includes(widget), true); }
  assert.equal(placeholders(dom).length, 0);
  const scripts = dom.document.head.childNodes.filter((node) => node.nodeName === 'SCRIPT' && node.getAttribute('src') === SDK);
  assert.equal(scripts.length, 2, 'the SDK is added once more');
  assert.equal(dom.log.sources.length, sources + 1);
  const later = element(dom, 'div', { class: 'fb-post' });
  dom.document.head.appendChild(later);
  await settle();
  assert.equal(dom.document.head.childNodes.includes(later), true, 'after the answer, new widgets stay');
});

test("on Facebook's own site the SDK is not blocked and widgets stay", { skip: skip || false }, async () => {
  const { dom } = openPage('https://www.facebook.com/page');
  const like = element(dom, 'div', { class: 'fb-like' });
  dom.document.head.appendChild(like);
  dom.document.head.appendChild(element(dom, 'script', { src: SDK }));
  await settle();
  assert.equal(dom.document.head.childNodes.includes(like), true);
});
