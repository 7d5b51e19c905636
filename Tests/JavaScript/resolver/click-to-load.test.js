'use strict';
// Click-to-Load in blocking.js: the click-to-load reference suite through the script's resolver
// with each case's userUnblockedRuleActions; the placeholder that replaces a blocked embed frame;
// the click message to the host and the host's answer, which puts the frame back; a page that
// clicks for the user or hooks Object.prototype gains nothing.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const helpers = require('./helpers.js');
const { createFakeDOM } = require('./fake-dom.js');

const folder = path.join(helpers.sharedData, 'privacy-reference-tests', 'click-to-load');
const suite = {
  tds: path.join(folder, 'tds_reference.json'),
  privacyConfig: path.join(folder, 'config_reference.json'),
  surrogates: path.join(folder, 'surrogates_reference.txt'),
  tests: path.join(folder, 'tests.json')
};
const skipSuite = helpers.missing([suite.tds, suite.privacyConfig, suite.surrogates, suite.tests]);
const skip = helpers.missing([]);

test('the click-to-load reference suite: all 17 cases, no platform exception', { skip: skipSuite || false }, () => {
  // The suite's surrogate body, `() => ();`, is no JavaScript: the same surrogate name with a body
  // that parses (only its name decides a redirect).
  const surrogates = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'trackerless-ctl-suite-')), 'surrogates.txt');
  const header = fs.readFileSync(suite.surrogates, 'utf8').split('\n')[0];
  fs.writeFileSync(surrogates, header + '\n(function () {})();\n');
  const { api } = helpers.runBlocking(helpers.renderBlocking(Object.assign({}, suite, { surrogates })));
  const cases = [];
  for (const set of Object.values(helpers.readJSON(suite.tests))) { cases.push(...set.tests); }
  assert.equal(cases.length, 17);
  const failures = [];
  for (const test of cases) {
    const decision = api.decide(test.requestUrl, test.siteUrl, 'script', test.userUnblockedRuleActions);
    const outcome = decision.action === 'block' || decision.action === 'redirect' ? decision.action : 'ignore';
    if (outcome !== test.expectedOutcome) { failures.push(`${test.name}: ${outcome} (${decision.reason})`); }
  }
  assert.deepEqual(failures, []);
});

// A video tracker whose embeds are Click-to-Load, under a configuration that enables it.
function writeInputs() {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'trackerless-ctl-'));
  const tds = {
    trackers: {
      'video.test': {
        domain: 'video.test', owner: { name: 'Video Co', displayName: 'Video' }, default: 'ignore',
        rules: [{ rule: 'video\\.test/embed/', action: 'block-ctl-video' }]
      }
    },
    entities: { 'Video Co': { domains: ['video.test'], displayName: 'Video' } },
    domains: { 'video.test': 'Video Co' },
    cnames: {}
  };
  const config = {
    features: {
      contentBlocking: { state: 'enabled', exceptions: [] },
      clickToLoad: { state: 'enabled', exceptions: [], settings: { 'Video Co': { state: 'enabled', ruleActions: ['block-ctl-video'] } } }
    },
    unprotectedTemporary: []
  };
  fs.writeFileSync(path.join(directory, 'tds.json'), JSON.stringify(tds));
  fs.writeFileSync(path.join(directory, 'config.json'), JSON.stringify(config));
  return { tds: path.join(directory, 'tds.json'), privacyConfig: path.join(directory, 'config.json') };
}

let rendered = null;
function openPage(globals) {
  // As hosts that block with the rule lists render it: without blocking in script.
  if (rendered === null) { rendered = helpers.renderBlocking(Object.assign(writeInputs(), { blockInScript: false, batchInterval: 50 })); }
  const dom = createFakeDOM('https://news.test/article');
  const page = helpers.createPage(Object.assign({}, dom.globals, globals || {}));
  const { api } = helpers.runBlocking(rendered, page);
  return { api, page, dom };
}

function addFrame(dom, url) {
  const frame = dom.document.createElement('iframe');
  frame.setAttribute('src', url);
  frame.setAttribute('width', '560');
  frame.setAttribute('height', '315');
  dom.document.head.appendChild(frame);
  return frame;
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

function click(dom, element, isTrusted) {
  const event = new dom.globals.Event('click');
  event.isTrusted = isTrusted;
  element.dispatchEvent(event);
}

function clickEvents(page) {
  return page.posted.flatMap((message) => message.events).filter((event) => event.kind === 'clickToLoad');
}

test('a blocked embed frame becomes a placeholder: a button saying what it loads and a privacy note', { skip: skip || false }, async () => {
  const { dom } = openPage();
  const frame = addFrame(dom, 'https://video.test/embed/42');
  const other = addFrame(dom, 'https://video.test/about');
  await settle();
  const children = dom.document.head.childNodes;
  assert.equal(children.includes(frame), false);
  assert.equal(children.includes(other), true, 'a frame no Click-to-Load rule blocks stays');
  const box = children.find((node) => node.nodeName === 'DIV');
  assert.equal(box.getAttribute('data-trackerless-click-to-load'), 'block-ctl-video');
  assert.match(box.getAttribute('style'), /width:560px;height:315px;/);
  const [button, note] = box.childNodes;
  assert.equal(button.nodeName, 'BUTTON');
  assert.equal(button.textContent, 'Load the embedded content from video.test');
  assert.equal(note.textContent, 'Blocked by Trackerless: loading it lets Video Co see that you visit this page.');
});

test('the embed behind a placeholder is reported blocked once, with its URL and type, for the dashboard', { skip: skip || false }, async () => {
  const { page, dom } = openPage();
  addFrame(dom, 'https://video.test/embed/42');
  addFrame(dom, 'https://video.test/about');
  await settle();
  await new Promise((resolve) => setTimeout(resolve, 120));
  // Both frames were also reported as page script's attempts (`pending`); the dashboard keeps
  // one request per URL, and `blocked` outranks `pending`.
  const blocked = page.posted.flatMap((message) => message.events)
    .filter((event) => event.kind === 'request' && event.state === 'blocked');
  assert.deepEqual(blocked.map((event) => [event.url, event.type]), [['https://video.test/embed/42', 'subdocument']]);
});

test("the user's click posts the click message at once; the host's answer with its token puts the frame back", { skip: skip || false }, async () => {
  const { api, page, dom } = openPage();
  const frame = addFrame(dom, 'https://video.test/embed/42');
  await settle();
  const box = dom.document.head.childNodes.find((node) => node.nodeName === 'DIV');
  const button = box.childNodes[0];

  click(dom, button, false);
  assert.deepEqual(clickEvents(page), [], 'a click by a script of the page is no click of the user');

  click(dom, button, true);
  const events = clickEvents(page);
  assert.equal(events.length, 1);
  assert.equal(events[0].action, 'block-ctl-video');
  assert.equal(events[0].url, 'https://video.test/embed/42');
  assert.match(events[0].token, /^[0-9a-f]{16}$/);
  const message = page.posted[page.posted.length - 1];
  assert.equal(message.secret, helpers.SECRET);
  assert.equal(message.script, 'blocking');
  assert.equal(button.textContent, 'Loading\u2026');
  click(dom, button, true);
  assert.equal(clickEvents(page).length, 1, 'one message per placeholder');

  const answer = (detail) => dom.globals.EventTarget.prototype.dispatchEvent.call(
    page.global, new dom.globals.CustomEvent('trackerless-click-to-load', { detail }));
  answer('0000000000000000');
  assert.equal(dom.document.head.childNodes.includes(frame), false, 'a wrong token changes nothing');
  assert.notEqual(api.decide('https://video.test/embed/42', 'https://news.test/article', 'subdocument').action, 'ignore');

  answer(events[0].token);
  assert.equal(dom.document.head.childNodes.includes(frame), true);
  assert.equal(dom.document.head.childNodes.includes(box), false);
  // The action is unblocked in this document: the frame put back, or a new one, stays.
  assert.equal(api.decide('https://video.test/embed/42', 'https://news.test/article', 'subdocument').action, 'ignore');
  await settle();
  assert.equal(dom.document.head.childNodes.includes(frame), true);
  const second = addFrame(dom, 'https://video.test/embed/43');
  await settle();
  assert.equal(dom.document.head.childNodes.includes(second), true);
  answer(events[0].token);
  assert.equal(dom.document.head.childNodes.includes(frame), true, 'a token answers once');
});

test('a page hooking Object.prototype sees nothing of the placeholder or the click message', { skip: skip || false }, async () => {
  const seen = [];
  const { page, dom } = openPage();
  for (const key of ['kind', 'url', 'action', 'token', 'element', 'box', 'restored', 'secret']) {
    Object.defineProperty(page.global.Object.prototype, key, {
      configurable: true, get() { seen.push('get ' + key); return undefined; }, set() { seen.push('set ' + key); }
    });
  }
  addFrame(dom, 'https://video.test/embed/42');
  await settle();
  const box = dom.document.head.childNodes.find((node) => node.nodeName === 'DIV');
  click(dom, box.childNodes[0], true);
  const event = clickEvents(page)[0];
  dom.globals.EventTarget.prototype.dispatchEvent.call(
    page.global, new dom.globals.CustomEvent('trackerless-click-to-load', { detail: event.token }));
  assert.equal(dom.document.head.childNodes.some((node) => node.nodeName === 'IFRAME'), true);
  for (const key of ['kind', 'url', 'action', 'token', 'element', 'box', 'restored', 'secret']) { delete page.global.Object.prototype[key]; }
  assert.deepEqual(seen, []);
  assert.equal(event.action, 'block-ctl-video');
});

test("the documented answer to the click (TrackerlessRuntime's Click-to-Load article), run as written in the page, puts the frame back", { skip: skip || false }, async () => {
  const readme = fs.readFileSync(path.join(helpers.repoRoot, 'Sources', 'TrackerlessRuntime', 'TrackerlessRuntime.docc', 'ClickToLoad.md'), 'utf8');
  const snippet = /`(window\.dispatchEvent\(new CustomEvent\([^`]*<token>[^`]*\))`/.exec(readme);
  assert.ok(snippet, 'ClickToLoad.md has no click answer to run');
  const { page, dom } = openPage();
  // WebKit's window is an event target.
  page.global.dispatchEvent = function (event) { return dom.globals.EventTarget.prototype.dispatchEvent.call(this, event); };
  const frame = addFrame(dom, 'https://video.test/embed/42');
  await settle();
  const box = dom.document.head.childNodes.find((node) => node.nodeName === 'DIV');
  click(dom, box.childNodes[0], true);
  const token = clickEvents(page)[0].token;
  require('node:vm').runInContext(snippet[1].replace('<token>', token), page.context);
  assert.equal(dom.document.head.childNodes.includes(frame), true);
});
