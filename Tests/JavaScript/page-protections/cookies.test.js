'use strict';
// document.cookie from blocking.js: the expire-first-party-js-cookies suite (each case's
// cookie written by a script at the case's URL, then read from the page's jar), a tracker found
// through its CNAME, the excluded cookie domains, cookies of the page's own scripts, and a page
// that hides the stack or writes from a timer.

const test = require('node:test');
const assert = require('node:assert/strict');
const { helpers, suite, render, jsonFile, openPage, cases } = require('./page.js');

const { inputs, skip, script } = suite('expire-first-party-js-cookies');

function write(page, cookie, scriptURL) {
  page.runAs(`document.cookie = ${JSON.stringify(cookie)};`, scriptURL);
}

// The cookie's lifetime in the jar, within a second of the expected (the clock moves on).
function near(actual, expected) { return expected === -1 ? actual === -1 : Math.abs(actual - expected) <= 1; }

test('the suite: all 10 cases', { skip: skip || false }, () => {
  const all = cases('expire-first-party-js-cookies');
  assert.equal(all.length, 10);
  const failures = [];
  for (const test of all) {
    const page = openPage(script(), { url: test.siteURL });
    write(page, test.setDocumentCookie, test.scriptURL);
    const cookie = page.jar.get('foo');
    if (!test.expectCookieSet) {
      if (page.jar.size !== 0) { failures.push(`${test.name}: set (${page.written})`); }
    } else if (cookie === undefined) {
      failures.push(`${test.name}: not set (${page.written})`);
    } else if (!near(cookie.lifetime, test.expectExpiryToBe)) {
      failures.push(`${test.name}: lifetime ${cookie.lifetime} (${page.written})`);
    }
  }
  assert.deepEqual(failures, []);
});

test("a tracker behind a CNAME is a tracker; the page's own scripts and excluded domains are not", { skip: skip || false }, () => {
  let page = openPage(script(), { url: 'https://example.com/' });
  write(page, 'a=1; Max-Age=900000', 'https://tracker.cname.com/t.js');
  write(page, 'b=1; Max-Age=900000', 'https://example.com/app.js');
  assert.equal(page.jar.get('a').lifetime, 86400);
  assert.equal(page.jar.get('b').lifetime, 900000);

  const config = helpers.readJSON(inputs.privacyConfig);
  config.features.cookie.settings.excludedCookieDomains = [{ domain: 'tracker.com', reason: 'test' }];
  page = openPage(render({ privacyConfig: jsonFile('config.json', config), tds: inputs.tds }), { url: 'https://example.com/' });
  write(page, 'c=1; Max-Age=900000', 'https://cdn.tracker.com/t.js');
  write(page, 'd=1; Max-Age=900000', 'https://unblockable-tracker.net/t.js');
  assert.equal(page.jar.get('c').lifetime, 900000);
  assert.equal(page.jar.get('d').lifetime, 86400);
});

test('a tracker that lowers the stack trace limit, writes its own stacks or writes from a timer is still seen', { skip: skip || false }, async () => {
  const page = openPage(script(), { url: 'https://example.com/' });
  page.runAs('Error.stackTraceLimit = 0; document.cookie = "a=1; Max-Age=900000";', 'https://tracker.com/t.js');
  await new Promise((resolve) => {
    page.runAs('setTimeout(function () { document.cookie = "b=1; Max-Age=900000"; }, 0);', 'https://tracker.com/t.js');
    setTimeout(resolve, 10);
  });
  assert.equal(page.jar.get('a').lifetime, 86400);
  assert.equal(page.jar.get('b').lifetime, 86400);
  assert.equal(page.evaluate('Error.stackTraceLimit'), 0, "the page's limit is put back");
  // V8 lets a page write every stack trace; the script's own is written by the engine.
  page.runAs('Error.prepareStackTrace = function () { return ""; }; document.cookie = "c=1; Max-Age=900000";',
    'https://tracker.com/t.js');
  assert.equal(page.jar.get('c').lifetime, 86400);
  assert.equal(page.evaluate('typeof Error.prepareStackTrace'), 'function', "the page's function is put back");
});

test("the setter caps whatever document it is called on (another realm's setter on this document)", { skip: skip || false }, () => {
  const page = openPage(script(), { url: 'https://example.com/' });
  page.runAs('Object.getOwnPropertyDescriptor(Document.prototype, "cookie").set.call(new Document(), "foo=bar; Max-Age=900000");',
    'https://tracker.com/script.js');
  assert.deepEqual(page.written, ['foo=bar; Max-Age=86400']);
});

test('the written text keeps every other attribute, and the user allowlist turns the cap off', { skip: skip || false }, () => {
  let page = openPage(script(), { url: 'https://example.com/' });
  write(page, 'foo=bar; Expires=Wed, 21 Aug 2030 20:00:00 UTC; Domain=example.com; max-age=900000; Path=/; Secure',
    'https://tracker.com/script.js');
  assert.deepEqual(page.written, ['foo=bar; Domain=example.com; Path=/; Secure; Max-Age=86400']);
  page = openPage(render(Object.assign({ allowlist: jsonFile('allowlist.json', ['example.com']) }, inputs)), { url: 'https://example.com/' });
  write(page, 'foo=bar; Max-Age=900000', 'https://tracker.com/script.js');
  assert.equal(page.jar.get('foo').lifetime, 900000);
});
