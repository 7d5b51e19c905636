'use strict';
// DuckDuckGo's request-blocklist reference tests (with their tds, privacy configuration, user
// allowlist and surrogates) through blocking.js's resolver, and the same answers as
// `trackerless resolve` on them.

const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const helpers = require('./helpers.js');

const folder = path.join(helpers.sharedData, 'privacy-reference-tests', 'request-blocklist');
const inputs = {
  tds: path.join(folder, 'tds-reference.json'),
  privacyConfig: path.join(folder, 'config-reference.json'),
  allowlist: path.join(folder, 'user-allowlist-reference.json'),
  surrogates: path.join(folder, 'surrogates-reference.txt')
};
const testsFile = path.join(folder, 'tests.json');
const skip = helpers.missing([inputs.tds, inputs.privacyConfig, inputs.allowlist, inputs.surrogates, testsFile]);

function cases() {
  if (skip !== null) { return []; }
  const suites = helpers.readJSON(testsFile);
  const all = [];
  for (const key of Object.keys(suites)) {
    for (const testCase of suites[key].tests) { all.push(Object.assign({ suite: key }, testCase)); }
  }
  return all;
}

test('request-blocklist reference tests', { skip: skip || false }, async (t) => {
  const all = cases();
  assert.ok(all.length >= 41, `${all.length} cases`);
  const { api } = helpers.runBlocking(helpers.renderBlocking(inputs));
  for (const testCase of all) {
    await t.test(`${testCase.suite}: ${testCase.name}`, () => {
      const decision = api.decide(testCase.requestUrl, testCase.websiteUrl, testCase.requestType);
      assert.notEqual(decision, null);
      const blocked = decision.action === 'block' || decision.action === 'redirect';
      assert.equal(blocked ? 'block' : 'allow', testCase.expectAction, `reason: ${decision.reason}`);
    });
  }
});

test('request-blocklist reference tests: the same answers as trackerless resolve', { skip: skip || false }, () => {
  const requests = [];
  for (const testCase of cases()) {
    for (const type of [testCase.requestType, 'script', 'main_frame']) {
      requests.push({ url: testCase.requestUrl, site: testCase.websiteUrl, type });
    }
    // The user-allowlisted site, www. of it and another subdomain (the user allowlist is
    // DuckDuckGo's toggle: the domain and www. of it only).
    requests.push({ url: testCase.requestUrl, site: 'https://user-allowlisted.example/', type: testCase.requestType });
    requests.push({ url: testCase.requestUrl, site: 'https://www.user-allowlisted.example/', type: testCase.requestType });
    requests.push({ url: testCase.requestUrl, site: 'https://sub.user-allowlisted.example/', type: testCase.requestType });
  }
  const { api } = helpers.runBlocking(helpers.renderBlocking(inputs));
  assert.deepEqual(helpers.compareWithSwift(requests, inputs, api), []);
});
