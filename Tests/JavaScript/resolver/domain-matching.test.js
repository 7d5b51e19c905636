'use strict';
// DuckDuckGo's TR-domain-matching reference tests (domain tests, surrogate tests, tracker
// allowlist tests) through the resolver of blocking.js as `trackerless scripts` renders it, and
// the same requests through `trackerless resolve`: the answers must be the Swift resolver's.

const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const vm = require('node:vm');
const helpers = require('./helpers.js');
const { createFakeDOM } = require('./fake-dom.js');

const folder = helpers.domainMatching;
const tds = path.join(folder, 'tracker_radar_reference.json');
const surrogates = path.join(folder, 'surrogates.txt');
const testsFile = path.join(folder, 'domain_matching_tests.json');
const allowlistTds = path.join(folder, 'tracker_allowlist_tds_reference.json');
const allowlistFile = path.join(folder, 'tracker_allowlist_reference.json');
const allowlistTests = path.join(folder, 'tracker_allowlist_matching_tests.json');

const skip = helpers.missing([tds, surrogates, testsFile, allowlistTds, allowlistFile, allowlistTests]);

function domainCases() {
  if (skip !== null) { return { domainTests: [], surrogateTests: [] }; }
  const suites = helpers.readJSON(testsFile);
  return { domainTests: suites.domainTests.tests, surrogateTests: suites.surrogateTests.tests };
}

const cases = domainCases();

test('TR-domain-matching: domain tests', { skip: skip || false }, async (t) => {
  assert.equal(cases.domainTests.length, 122);
  const source = helpers.renderBlocking({ tds, surrogates });
  const { api } = helpers.runBlocking(source);
  for (const testCase of cases.domainTests) {
    await t.test(testCase.name, () => {
      const decision = api.decide(testCase.requestURL, testCase.siteURL, testCase.requestType);
      assert.notEqual(decision, null);
      assert.equal(decision.action, testCase.expectAction, `reason: ${decision.reason}`);
    });
  }
});

test('TR-domain-matching: surrogate tests', { skip: skip || false }, async (t) => {
  assert.equal(cases.surrogateTests.length, 12);
  // As a host with content blocking renders it: the script only runs surrogates (lean data).
  const source = helpers.renderBlocking({ tds, surrogates, blockInScript: false });
  for (const testCase of cases.surrogateTests) {
    await t.test(testCase.name, async () => {
      // A fresh page at the site per case: a surrogate runs once per page and defines page globals.
      const dom = createFakeDOM(testCase.siteURL);
      const { api, page } = helpers.runBlocking(source, helpers.createPage(dom.globals));
      const decision = api.decide(testCase.requestURL, testCase.siteURL, testCase.requestType);
      assert.notEqual(decision, null);
      assert.equal(decision.action, testCase.expectAction, `reason: ${decision.reason}`);
      if (testCase.requestType !== 'script') { return; }
      // The page loads the script: the blocking script runs the surrogate in its place (redirect
      // only) and fires the element's load.
      const script = dom.document.createElement('script');
      const events = [];
      script.onload = () => events.push('load');
      script.setAttribute('src', testCase.requestURL);
      dom.document.head.appendChild(script);
      await new Promise((resolve) => setImmediate(resolve));
      if (testCase.expectAction === 'redirect') {
        assert.equal(vm.runInContext(testCase.expectExpression, page.context), true, testCase.expectExpression);
        assert.deepEqual(events, ['load']);
      } else {
        assert.equal(vm.runInContext('typeof window.surrogate1', page.context), 'undefined');
        assert.deepEqual(events, []);
      }
    });
  }
});

test('TR-domain-matching: tracker allowlist tests', { skip: skip || false }, async (t) => {
  const allowlist = helpers.readJSON(allowlistTests);
  assert.equal(allowlist.length, 25);
  const privacyConfig = helpers.allowlistConfiguration(allowlistFile);
  const source = helpers.renderBlocking({ tds: allowlistTds, privacyConfig });
  const { api } = helpers.runBlocking(source);
  for (const testCase of allowlist) {
    await t.test(testCase.description, () => {
      // Every request here is to a default-block tracker: ignored by the allowlist exactly when
      // allowlisted, blocked otherwise.
      const decision = api.decide(testCase.request, testCase.site, 'script');
      assert.notEqual(decision, null);
      if (testCase.isAllowlisted) {
        assert.deepEqual([decision.action, decision.reason], ['ignore', 'tracker allowlist']);
      } else {
        assert.equal(decision.action, 'block', `reason: ${decision.reason}`);
      }
    });
  }
});

test('TR-domain-matching: the same answers as trackerless resolve', { skip: skip || false }, () => {
  const all = cases.domainTests.concat(cases.surrogateTests);
  const requests = all.map((c) => ({ url: c.requestURL, site: c.siteURL, type: c.requestType }));
  const { api } = helpers.runBlocking(helpers.renderBlocking({ tds, surrogates }));
  const mismatches = helpers.compareWithSwift(requests, { tds, surrogates }, api);
  assert.deepEqual(mismatches, []);

  const allowlist = helpers.readJSON(allowlistTests);
  const privacyConfig = helpers.allowlistConfiguration(allowlistFile);
  const allowlistRequests = [];
  for (const c of allowlist) {
    for (const type of ['script', 'image', 'main_frame']) { allowlistRequests.push({ url: c.request, site: c.site, type }); }
  }
  const rendered = helpers.runBlocking(helpers.renderBlocking({ tds: allowlistTds, privacyConfig }));
  assert.deepEqual(helpers.compareWithSwift(allowlistRequests, { tds: allowlistTds, privacyConfig }, rendered.api), []);
});

test('a tracker host with its final dot or userinfo is the same tracker; a user named like it is not', { skip: skip || false }, () => {
  const { api } = helpers.runBlocking(helpers.renderBlocking({ tds, surrogates }));
  const requests = [];
  for (const c of cases.domainTests) {
    const url = new URL(c.requestURL);
    if (!url.protocol.startsWith('http')) { continue; }
    const dotted = c.requestURL.replace(url.host, url.hostname + '.' + (url.port === '' ? '' : ':' + url.port));
    const withUser = c.requestURL.replace('://', '://u:p@');
    for (const spelled of [dotted, withUser]) {
      const decision = api.decide(spelled, c.siteURL, c.requestType);
      assert.notEqual(decision, null, spelled);
      assert.equal(decision.action, c.expectAction, `${spelled}: ${decision.reason}`);
      requests.push({ url: spelled, site: c.siteURL, type: c.requestType });
    }
    // `https://tracker:pw@evil.example/` is evil.example, never the tracker.
    const named = url.protocol + '//' + url.hostname + ':pw@evil.example' + url.pathname;
    const evil = api.decide(named, c.siteURL, c.requestType);
    assert.equal(evil.reason, 'no match', named);
    requests.push({ url: named, site: c.siteURL, type: c.requestType });
  }
  assert.ok(requests.length > 200);
  assert.deepEqual(helpers.compareWithSwift(requests, { tds, surrogates }, api), []);
});
