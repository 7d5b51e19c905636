'use strict';
// A page whose URL spells its host with the final dot of a fully qualified name
// (`https://www.facebook.com./`) is not the tracker owner's first-party site: the content-blocker
// rules' site conditions accept no final dot (BENCHMARKS.md, "Host spellings in the url-filters"),
// and the blocking script must decide as they do and as `trackerless resolve` does. The same
// cases run through the Swift paths in Tests/WebKitTests/FinalDotSiteTests.swift.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const helpers = require('./helpers.js');

const skip = helpers.missing([]);

const TDS = {
  trackers: {
    'facebook.net': { domain: 'facebook.net', owner: { name: 'Facebook, Inc.', displayName: 'Facebook' },
      prevalence: 0.24, fingerprinting: 2, cookies: 0.2, categories: ['Social Network'], default: 'block' },
    'facebook.com': { domain: 'facebook.com', owner: { name: 'Facebook, Inc.', displayName: 'Facebook' },
      prevalence: 0.22, fingerprinting: 1, cookies: 0.1, categories: ['Social Network'], default: 'block' }
  },
  entities: { 'Facebook, Inc.': { displayName: 'Facebook', domains: ['facebook.com', 'facebook.net'], prevalence: 30 } },
  domains: { 'facebook.com': 'Facebook, Inc.', 'facebook.net': 'Facebook, Inc.' }
};

// [page, request, blocked]: the cases of FinalDotSiteTests.swift.
const CASES = [
  ['https://www.facebook.com./', 'https://connect.facebook.net/en_US/fbevents.js', true],
  ['https://www.facebook.com./', 'https://www.facebook.com/tr/px.js', true],
  ['https://facebook.com./a', 'https://connect.facebook.net/en_US/fbevents.js', true],
  ['https://www.facebook.com%2e/', 'https://www.facebook.com/tr/px.js', true],
  ['https://www.facebook.com/', 'https://connect.facebook.net/en_US/fbevents.js', false],
  ['https://www.facebook.com/', 'https://www.facebook.com/tr/px.js', false],
  ['https://news.example/', 'https://connect.facebook.net/en_US/fbevents.js', true]
];

test('a page spelled with a final dot is not the owner\'s site: the blocking script blocks as the resolver does',
  { skip: skip || false }, () => {
    const tds = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'trackerless-final-dot-')), 'tds.json');
    fs.writeFileSync(tds, JSON.stringify(TDS));
    const { api } = helpers.runBlocking(helpers.renderBlocking({ tds }));
    const requests = CASES.map(([site, url]) => ({ url, site, type: 'script' }));
    for (const [site, url, blocked] of CASES) {
      const decision = api.decide(url, site, 'script');
      assert.equal(decision.action === 'block', blocked, `${url} on ${site}: ${decision.action} (${decision.reason})`);
    }
    assert.deepEqual(helpers.compareWithSwift(requests, { tds }, api), []);
  });
