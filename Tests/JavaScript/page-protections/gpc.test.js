'use strict';
// navigator.globalPrivacyControl from blocking.js: the global-privacy-control suite's JavaScript
// cases (top frame and cross-origin frame, user setting on and off, gpc exceptions and
// unprotectedTemporary), the user allowlist, and the attribute's shape on Navigator.prototype,
// which page script can read but not change through navigator.

const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const { helpers, suites, render, jsonFile, openPage, cases } = require('./page.js');

const folder = path.join(suites, 'global-privacy-control');
const config = path.join(folder, 'config_reference.json');
const skip = helpers.missing([config, path.join(folder, 'tests.json')]);

const rendered = new Map();
function script(gpc, allowlist) {
  const key = gpc + ' ' + (allowlist || '');
  if (!rendered.has(key)) { rendered.set(key, render({ privacyConfig: config, gpc, allowlist })); }
  return rendered.get(key);
}

function open(test, source) {
  return test.frameURL
    ? openPage(source, { url: test.frameURL, top: test.siteURL })
    : openPage(source, { url: test.siteURL });
}

test('the suite\'s JavaScript API cases: all 6, in the top frame or the case\'s frame', { skip: skip || false }, () => {
  const apiCases = cases('global-privacy-control').filter((test) => 'expectGPCAPI' in test);
  assert.equal(apiCases.length, 6);
  const failures = [];
  for (const test of apiCases) {
    const page = open(test, script(test.gpcUserSettingOn === false ? 'off' : 'on'));
    const injected = page.evaluate("'globalPrivacyControl' in navigator");
    const value = page.evaluate('String(Navigator.prototype.globalPrivacyControl)');
    if (injected !== test.expectGPCAPI) { failures.push(`${test.name}: injected ${injected}`); }
    if ('expectGPCAPIValue' in test && value !== test.expectGPCAPIValue) { failures.push(`${test.name}: value ${value}`); }
    if (test.expectGPCAPI && page.evaluate('navigator.globalPrivacyControl') !== (test.gpcUserSettingOn !== false)) {
      failures.push(`${test.name}: navigator.globalPrivacyControl is not the user's setting`);
    }
  }
  assert.deepEqual(failures, []);
});

test('a site on the user allowlist gets no API, in its frames neither', { skip: skip || false }, () => {
  const source = script('on', jsonFile('allowlist.json', ['news.example']));
  assert.equal(openPage(source, { url: 'https://news.example/a' }).evaluate("'globalPrivacyControl' in navigator"), false);
  assert.equal(openPage(source, { url: 'https://frame.example/', top: 'https://news.example/a' })
    .evaluate("'globalPrivacyControl' in navigator"), false);
  assert.equal(openPage(source, { url: 'https://other.example/' }).evaluate('navigator.globalPrivacyControl'), true);
});

test('the attribute has the shape of a WebIDL attribute and page script cannot change it through navigator',
  { skip: skip || false }, () => {
    const page = openPage(script('on'), { url: 'https://news.example/' });
    const shape = page.evaluate(`(function () {
      var d = Object.getOwnPropertyDescriptor(Navigator.prototype, 'globalPrivacyControl');
      return JSON.stringify({ get: typeof d.get, name: d.get.name, set: d.set, enumerable: d.enumerable,
        configurable: d.configurable, own: Object.prototype.hasOwnProperty.call(navigator, 'globalPrivacyControl') });
    })()`);
    assert.deepEqual(JSON.parse(shape),
      { get: 'function', name: 'get globalPrivacyControl', enumerable: true, configurable: true, own: false });
    assert.throws(() => page.evaluate("'use strict'; navigator.globalPrivacyControl = false;"));
    page.evaluate('navigator.globalPrivacyControl = false; Object.prototype.value = false; Object.prototype.get = function () { return false; };');
    assert.equal(page.evaluate('navigator.globalPrivacyControl'), true);
    assert.equal(page.evaluate('Object.getOwnPropertyDescriptor(Navigator.prototype, "globalPrivacyControl").get.call({})'), true);
  });

test('without the gpc feature in the configuration the API is absent', { skip: skip || false }, () => {
  const configuration = jsonFile('config.json', { features: { gpc: { state: 'disabled', exceptions: [] } }, unprotectedTemporary: [] });
  const page = openPage(render({ privacyConfig: configuration }), { url: 'https://news.example/' });
  assert.equal(page.evaluate("'globalPrivacyControl' in navigator"), false);
});
