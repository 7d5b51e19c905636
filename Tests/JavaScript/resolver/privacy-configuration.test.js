'use strict';
// The privacy-configuration reference configs (content blocking off, on with feature and
// global exceptions, missing) with the TR-domain-matching blocklist: blocking.js's resolver
// gives `trackerless resolve`'s answers for the reference tests' sites and the domain tests'
// requests.

const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const helpers = require('./helpers.js');

const folder = path.join(helpers.sharedData, 'privacy-reference-tests', 'privacy-configuration');
const testsFile = path.join(folder, 'tests.json');
const configs = ['config1_reference.json', 'config2_reference.json', 'config3_reference.json'].map((name) => path.join(folder, name));
const tds = path.join(helpers.domainMatching, 'tracker_radar_reference.json');
const domainTests = path.join(helpers.domainMatching, 'domain_matching_tests.json');
const skip = helpers.missing(configs.concat([testsFile, tds, domainTests]));

test('privacy-configuration reference configs: the same answers as trackerless resolve', { skip: skip || false }, async (t) => {
  const suites = helpers.readJSON(testsFile);
  const sites = new Set();
  for (const key of Object.keys(suites)) {
    for (const testCase of suites[key].tests) { sites.add(testCase.siteURL); }
  }
  const requestURLs = new Set(helpers.readJSON(domainTests).domainTests.tests.map((c) => c.requestURL));
  const requests = [];
  for (const site of sites) {
    for (const url of requestURLs) { requests.push({ url, site, type: 'script' }); }
  }
  for (const privacyConfig of configs) {
    await t.test(path.basename(privacyConfig), () => {
      const { api } = helpers.runBlocking(helpers.renderBlocking({ tds, privacyConfig }));
      assert.deepEqual(helpers.compareWithSwift(requests, { tds, privacyConfig }, api), []);
    });
  }
});
