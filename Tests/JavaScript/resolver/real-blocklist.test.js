'use strict';
// The resolver of blocking.js against the Swift resolver on the real blocklist (apple-tds.json)
// with every request URL of adblock-rust's matching-test-requests.json: each request from its
// page (or www.example.com for the placeholder pages), from a page of its own site (first
// party), and as a navigation. Every field `trackerless resolve` writes must be the same.

const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const fs = require('node:fs');
const os = require('node:os');
const helpers = require('./helpers.js');

const tds = path.join(helpers.sharedData, 'tds', 'apple-tds.json');
const requestsFile = path.join(helpers.sharedData, 'requests', 'matching-test-requests.json');
const skip = helpers.missing([tds, requestsFile]);

// adblock-rust's type names -> Tracker Radar's.
const TYPES = { xhr: 'xmlhttprequest', fetch: 'xmlhttprequest', sub_frame: 'subdocument', beacon: 'ping' };
const DEFAULT_SITE = 'https://www.example.com/';

function pageOf(sourceUrl) {
  try {
    const url = new URL(sourceUrl);
    return url.hostname === '' ? DEFAULT_SITE : sourceUrl;
  } catch (e) {
    return DEFAULT_SITE;
  }
}

function ownSite(url) {
  try {
    return `https://${new URL(url).hostname}/`;
  } catch (e) {
    return null;
  }
}

// A surrogates.txt with every surrogate the blocklist names but the first, so that both a
// redirect and a rule naming a missing surrogate occur.
function surrogatesFile() {
  const names = new Set();
  const trackers = helpers.readJSON(tds).trackers;
  for (const key of Object.keys(trackers)) {
    for (const rule of trackers[key].rules || []) { if (rule.surrogate) { names.add(rule.surrogate); } }
  }
  const blocks = [...names].sort().slice(1).map((name) => `example.test/${name} application/javascript\n(function () {})();\n`);
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'trackerless-surrogates-')), 'surrogates.txt');
  fs.writeFileSync(file, blocks.join('\n'));
  return file;
}

test('apple-tds.json: the same decisions as trackerless resolve on the real request URLs', { skip: skip || false }, (t) => {
  const entries = helpers.readJSON(requestsFile);
  assert.equal(entries.length, 8276);
  const requests = [];
  for (const entry of entries) {
    const type = TYPES[entry.type] || entry.type;
    // `resolve` refuses URLs it cannot parse; those are left to both.
    if (ownSite(entry.url) === null) { continue; }
    requests.push({ url: entry.url, site: pageOf(entry.sourceUrl), type });
    requests.push({ url: entry.url, site: ownSite(entry.url), type });
    requests.push({ url: entry.url, site: 'https://news.example.co.uk/article', type: 'main_frame' });
  }
  const surrogates = surrogatesFile();
  const { api } = helpers.runBlocking(helpers.renderBlocking({ tds, surrogates }));
  const mismatches = helpers.compareWithSwift(requests, { tds, surrogates }, api);
  const counts = {};
  for (const request of requests) {
    const decision = api.decide(request.url, request.site, request.type);
    const key = decision === null ? 'unparsed' : decision.reason;
    counts[key] = (counts[key] || 0) + 1;
  }
  // Every tracker key, from the key's own site, a sibling under it, and an unrelated site: the
  // eTLD+1 comparisons on the public-suffix entries the data carries, entities, CNAME targets.
  const blocklist = helpers.readJSON(tds);
  const trackers = blocklist.trackers;
  const cnames = blocklist.cnames || {};
  const before = requests.length;
  for (const key of Object.keys(trackers)) {
    for (const site of [`https://${key}/`, `https://other.sub.${key}/`, 'https://www.example.co.uk/']) {
      requests.push({ url: `https://sub.${key}/x.js?a=1`, site, type: 'script' });
      requests.push({ url: `https://${key}/pixel.gif`, site, type: 'image' });
    }
  }
  for (const host of Object.keys(cnames)) {
    requests.push({ url: `https://${host}/x.js`, site: `https://${host}/`, type: 'script' });
    requests.push({ url: `https://${host}/x.js`, site: 'https://www.example.com/', type: 'script' });
  }
  const more = requests.slice(before);
  mismatches.push.apply(mismatches, helpers.compareWithSwift(more, { tds, surrogates }, api));
  for (const request of more) {
    const decision = api.decide(request.url, request.site, request.type);
    const key = decision === null ? 'unparsed' : decision.reason;
    counts[key] = (counts[key] || 0) + 1;
  }
  t.diagnostic(`${requests.length} decisions, ${mismatches.length} mismatches; reasons ${JSON.stringify(counts)}`);
  assert.deepEqual(mismatches.slice(0, 20), []);
});
