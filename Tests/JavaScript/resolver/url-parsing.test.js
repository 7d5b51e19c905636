'use strict';
// blocking.js splits common URLs itself (quickParse) instead of calling the URL constructor; it
// must give the URL constructor's answer for every URL it takes, and leave the others to it.

const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const helpers = require('./helpers.js');

const requestsFile = path.join(helpers.sharedData, 'requests', 'matching-test-requests.json');
const testsFile = path.join(helpers.domainMatching, 'domain_matching_tests.json');
const tds = path.join(helpers.domainMatching, 'tracker_radar_reference.json');
const skip = helpers.missing([requestsFile, testsFile, tds]);

const TRICKY = [
  'https://example.com', 'https://example.com?', 'https://example.com/?', 'https://example.com/a?b?c#d?e',
  'https://example.com/./a', 'https://example.com/a/../b', 'https://example.com/a/%2e%2E/b', 'https://example.com/.well-known/x',
  'https://example.com/a/.', 'https://example.com/a/..', 'https://example.com/%2e/x', 'https://example.com/a%20b',
  'https://Example.com/', 'HTTPS://example.com/', 'https://example.com./', 'https://.example.com/', 'https://a..b/',
  'https://192.168.0.1/', 'https://0x7f.1/', 'https://1.2.3.example/', 'https://example.123/', 'https://xn--bcher-kva.example/',
  'https://bücher.example/', 'https://user:pass@example.com/', 'https://example.com:443/', 'https://example.com:8080/x',
  'http://example.com:80/', 'https://exa mple.com/', 'https://example.com/a b', 'https://example.com/a\tb',
  "https://example.com/?q='x'", 'https://example.com/?q="x"', 'https://example.com/a^b', 'https://example.com/a|b',
  'https://example.com/a`b', 'https://example.com/{x}', 'https://example.com/a\\b', 'https://ex_ample.com/',
  'https://example.com/[x]', 'https://example.com/a;b=c,d@e:f', 'https://example.com/é', 'wss://example.com/', 'https://',
  'https:///x', 'http://', 'https://?q', 'https://#f', 'wss://', 'https://\\x', 'https://example.com:0443/', 'https://example.com:99999/', 'https://example.com:0/', 'https://example.com:65535/a?b', 'http://example.com:443/', 'https://example.com#frag', 'https://example.com/#', 'https://a-.b/', 'https://example.com/a?#'
];

test('quickParse gives the URL constructor\'s parts', { skip: skip || false }, () => {
  const { api } = helpers.runBlocking(helpers.renderBlocking({ tds }));
  const urls = TRICKY.slice();
  for (const entry of helpers.readJSON(requestsFile)) { urls.push(entry.url, entry.sourceUrl); }
  const suites = helpers.readJSON(testsFile);
  for (const key of Object.keys(suites)) {
    for (const c of suites[key].tests) { urls.push(c.requestURL, c.siteURL); }
  }
  let quick = 0;
  const mismatches = [];
  for (const url of urls) {
    const expected = JSON.stringify(api.parseWithURL(url));
    const actual = JSON.stringify(api.parseURL(url));
    if (actual !== expected) { mismatches.push({ url, actual, expected }); }
    if (api.quickParse(url) !== undefined) { quick += 1; }
  }
  assert.deepEqual(mismatches, []);
  assert.ok(quick > urls.length / 2, `${quick} of ${urls.length} split without the URL constructor`);
});
