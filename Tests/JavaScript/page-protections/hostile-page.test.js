'use strict';
// The page protections under a hostile page (Tests/JavaScript/hostile-page.js): accessors on
// Object.prototype and Array.prototype before the script starts, every built-in wrapped after.
// navigator.globalPrivacyControl, document.referrer and the cookie cap still hold, and the page
// never sees the secret.

const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const hostile = require('../hostile-page.js');
const { helpers, suites, render, jsonFile, openPage } = require('./page.js');

const tds = path.join(suites, 'expire-first-party-js-cookies', 'tracker_radar_reference.json');
const skip = helpers.missing([tds]);

test('GPC, document.referrer and the cookie cap hold in a hostile page, which never sees the secret', { skip: skip || false }, () => {
  const privacyConfig = jsonFile('config.json', {
    features: {
      gpc: { state: 'enabled', exceptions: [] },
      referrer: { state: 'enabled', exceptions: [] },
      cookie: { state: 'enabled', exceptions: [], settings: { firstPartyCookiePolicy: { threshold: 604800, maxAge: 86400 } } }
    },
    unprotectedTemporary: []
  });
  const source = render({ tds, privacyConfig });
  let run = null;
  const page = openPage(source, {
    url: 'https://example.com/a',
    referrer: 'https://news.example/story?id=1',
    before(runInPage) {
      run = runInPage;
      hostile.install(run, 'accessors');
    }
  });
  hostile.install(run, 'all');
  page.runAs('document.cookie = "foo=bar; Max-Age=900000; Path=/";', 'https://tracker.com/script.js');
  assert.equal(page.jar.get('foo').lifetime, 86400);
  assert.equal(page.evaluate('navigator.globalPrivacyControl'), true);
  assert.equal(page.evaluate('document.referrer'), 'https://news.example/');
  assert.ok(hostile.seen(run).length > 0, 'the hooks ran');
  assert.deepEqual(hostile.leaks(run, [helpers.SECRET]), [], 'the page saw the secret');
});
