'use strict';
// The lean tracker data (CompactTrackerData scope `surrogateTrackers`), which `trackerless
// scripts` renders when the blocking script does not block (the host's content-blocker rules do):
// the script's decision must be `trackerless resolve`'s for every request the Swift resolver
// redirects and for every request to a tracker in the scope, whatever it decides (first party,
// allowlist, unprotected site, earlier ignore or exception rules, request blocklist); no request
// outside the scope may be redirected. With --block-in-script the data holds every tracker and
// every decision is the resolver's.
//
// The scope is computed here on its own from the tds and the surrogates: the trackers with a
// rule naming a surrogate that exists (not `ignore`, no unsupported action) or a Click-to-Load
// rule (whose embeds get placeholders), and every tracker under one of them; a request belongs to the tracker the resolver's host walk (or the exact
// host's CNAME target's walk) finds.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const helpers = require('./helpers.js');

const folder = helpers.domainMatching;
const domainTDS = path.join(folder, 'tracker_radar_reference.json');
const domainSurrogates = path.join(folder, 'surrogates.txt');
const domainTests = path.join(folder, 'domain_matching_tests.json');
const appleTDS = path.join(helpers.sharedData, 'tds', 'apple-tds.json');
const requestsFile = path.join(helpers.sharedData, 'requests', 'matching-test-requests.json');
const repoSurrogates = path.join(helpers.repoRoot, 'Surrogates');

const skipDomain = helpers.missing([domainTDS, domainSurrogates, domainTests]);
const skipApple = helpers.missing([appleTDS, requestsFile]);

// The actions the resolver acts on: `block-ctl-*` (click to load) blocks, others are skipped.
function blocks(action) {
  return action === undefined || action === 'block' || (typeof action === 'string' && action.startsWith('block-ctl-'));
}

// Renders with `trackerless scripts`: blocking.js, the surrogates.txt it embedded, the manifest.
function render(options) {
  const output = fs.mkdtempSync(path.join(os.tmpdir(), 'trackerless-scope-'));
  try {
    const args = ['scripts', '--templates', path.join(helpers.repoRoot, 'JSTemplates'), '--secret', helpers.SECRET,
      '--bridge', 'webkit', '--output', path.join(output, 'scripts'), '--tds', options.tds,
      '--surrogates', options.surrogates];
    if (options.privacyConfig) { args.push('--privacy-config', options.privacyConfig); }
    if (options.allowlist) { args.push('--allowlist', options.allowlist); }
    if (options.blockInScript) { args.push('--block-in-script'); }
    execFileSync(helpers.binary(), args, { stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 28 });
    const read = (name) => fs.readFileSync(path.join(output, 'scripts', name), 'utf8');
    const surrogatesCopy = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'trackerless-scope-surrogates-')), 'surrogates.txt');
    fs.writeFileSync(surrogatesCopy, read('surrogates.txt'));
    return { blocking: read('blocking.js'), surrogates: surrogatesCopy, manifest: JSON.parse(read('manifest.json')) };
  } finally {
    fs.rmSync(output, { recursive: true, force: true });
  }
}

// The names a surrogates.txt defines (the last path component of each block's first line).
function surrogateNames(file) {
  const names = new Set();
  let startOfBlock = true;
  for (const line of fs.readFileSync(file, 'utf8').split(/\r?\n/)) {
    if (line.trim() === '') {
      startOfBlock = true;
      continue;
    }
    if (startOfBlock && !line.startsWith('#')) {
      const header = line.split(/[ \t]+/)[0];
      names.add(header.split('/').filter((part) => part !== '').pop());
      startOfBlock = false;
    }
  }
  return names;
}

function suffixes(host) {
  const result = [host];
  let index = host.indexOf('.');
  while (index >= 0) {
    result.push(host.slice(index + 1));
    index = host.indexOf('.', index + 1);
  }
  return result;
}

// The scope: its tracker keys, and a function giving a request URL's tracker key (or null).
function scopeOf(tds, names) {
  const trackers = tds.trackers || {};
  const redirecting = new Set();
  for (const key of Object.keys(trackers)) {
    const rules = trackers[key].rules || [];
    if (rules.some((rule) => (typeof rule.surrogate === 'string' && names.has(rule.surrogate) && blocks(rule.action))
        || (typeof rule.action === 'string' && rule.action.startsWith('block-ctl-')))) {
      redirecting.add(key);
    }
  }
  const keys = new Set(Object.keys(trackers).filter((key) => suffixes(key).some((name) => redirecting.has(name))));
  const cnames = tds.cnames || {};
  const walk = (host) => suffixes(host).find((name) => Object.prototype.hasOwnProperty.call(trackers, name)) || null;
  function trackerKey(url) {
    let host;
    try { host = new URL(url).hostname; } catch (e) { return null; }
    const direct = walk(host);
    if (direct !== null) { return direct; }
    return Object.prototype.hasOwnProperty.call(cnames, host) ? walk(cnames[host]) : null;
  }
  return { keys, redirecting, trackerKey };
}

// Checks the lean render against `trackerless resolve`; returns counts for the diagnostics.
function checkLean(requests, inputs, api, scope) {
  const swift = helpers.resolveWithSwift(requests, inputs);
  assert.equal(swift.length, requests.length);
  const mismatches = [];
  const counts = { inScope: 0, redirects: 0, outOfScope: 0 };
  for (let i = 0; i < requests.length; i++) {
    const request = requests[i];
    const js = helpers.asResolveOutput(api.decide(request.url, request.site, request.type));
    const key = scope.trackerKey(request.url);
    const inScope = key !== null && scope.keys.has(key);
    if (swift[i].action === 'redirect') { counts.redirects += 1; }
    if (inScope || swift[i].action === 'redirect') {
      if (inScope) { counts.inScope += 1; }
      if (JSON.stringify(js) !== JSON.stringify(swift[i])) { mismatches.push({ request, key, js, swift: swift[i] }); }
    } else {
      counts.outOfScope += 1;
      // Outside the scope the script finds no tracker: no match, or the request blocklist.
      if (js !== null && (js.action === 'redirect' || js.tracker !== undefined)) {
        mismatches.push({ request, key, js, swift: swift[i], problem: 'out of scope' });
      }
    }
  }
  return { mismatches, counts };
}

test('TR-domain-matching: the lean data decides like trackerless resolve', { skip: skipDomain || false }, (t) => {
  const suites = helpers.readJSON(domainTests);
  const cases = suites.domainTests.tests.concat(suites.surrogateTests.tests);
  const requests = [];
  for (const c of cases) {
    requests.push({ url: c.requestURL, site: c.siteURL, type: c.requestType });
    requests.push({ url: c.requestURL, site: c.siteURL, type: 'script' });
  }
  const tds = helpers.readJSON(domainTDS);
  const scope = scopeOf(tds, surrogateNames(domainSurrogates));
  assert.ok(scope.redirecting.size > 0, 'no tracker with a surrogate');
  const inputs = { tds: domainTDS, surrogates: domainSurrogates };

  const lean = render(Object.assign({ blockInScript: false }, inputs));
  assert.equal(lean.manifest.files['blocking.js'].trackerDataScope, 'surrogateTrackers');
  const leanResult = checkLean(requests, inputs, helpers.runBlocking(lean.blocking).api, scope);
  t.diagnostic(`lean: ${JSON.stringify(leanResult.counts)}; ${scope.keys.size} of ${Object.keys(tds.trackers).length} trackers`);
  assert.deepEqual(leanResult.mismatches, []);
  assert.ok(leanResult.counts.redirects > 0 && leanResult.counts.outOfScope > 0);

  const full = render(Object.assign({ blockInScript: true }, inputs));
  assert.equal(full.manifest.files['blocking.js'].trackerDataScope, 'all');
  assert.ok(full.blocking.length > lean.blocking.length);
  assert.deepEqual(helpers.compareWithSwift(requests, inputs, helpers.runBlocking(full.blocking).api), []);
});

// A privacy configuration that exercises every path a request to a tracker of the scope can
// take before its rules: an unprotected site, tracker-allowlist rules on the scope's trackers
// (all sites, one site, a path), request-blocklist rules on them and on another domain.
function configurationFor(keys, outside) {
  const [first, second, third] = keys;
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'trackerless-scope-config-')), 'config.json');
  fs.writeFileSync(file, JSON.stringify({
    features: {
      contentBlocking: { state: 'enabled', exceptions: [{ domain: 'unprotected.example' }] },
      trackerAllowlist: {
        state: 'enabled', exceptions: [],
        settings: {
          allowlistedTrackers: {
            [first]: { rules: [{ rule: `${first}/`, domains: ['<all>'], reason: 'test' }] },
            [second]: { rules: [{ rule: `${second}/analytics`, domains: ['allowing.example'], reason: 'test' }] },
            [outside]: { rules: [{ rule: `${outside}/`, domains: ['<all>'], reason: 'test' }] }
          }
        }
      },
      requestBlocklist: {
        state: 'enabled', exceptions: [],
        settings: {
          blockedRequests: {
            [third]: { rules: [{ rule: `${third}/`, domains: ['<all>'], reason: 'test' }] },
            [second]: { rules: [{ rule: `${second}/`, domains: ['blocking.example'], reason: 'test' }] },
            [outside]: { rules: [{ rule: `${outside}/`, domains: ['<all>'], reason: 'test' }] }
          }
        }
      }
    },
    unprotectedTemporary: [{ domain: 'temporary.example' }]
  }));
  return file;
}

const TYPES = { xhr: 'xmlhttprequest', fetch: 'xmlhttprequest', sub_frame: 'subdocument', beacon: 'ping' };
const SITES = ['https://www.example.com/', 'https://news.example.co.uk/article', 'https://www.google.com/search',
  'https://www.facebook.com/', 'https://unprotected.example/', 'https://allowing.example/',
  'https://blocking.example/'];

test('apple-tds.json: the lean data decides like trackerless resolve on the real request URLs', { skip: skipApple || false }, (t) => {
  const entries = helpers.readJSON(requestsFile);
  assert.equal(entries.length, 8276);
  const tds = helpers.readJSON(appleTDS);
  // The surrogates this repository ships, as rendered (the index `trackerless scripts` writes).
  const probe = render({ tds: appleTDS, surrogates: repoSurrogates });
  const scope = scopeOf(tds, surrogateNames(probe.surrogates));
  const keys = [...scope.redirecting].sort();
  assert.ok(keys.length >= 3, `only ${keys.length} trackers with a surrogate`);
  const outside = Object.keys(tds.trackers).sort().find((key) => !scope.keys.has(key) && key.split('.').length === 2);
  const inputs = { tds: appleTDS, surrogates: probe.surrogates, privacyConfig: configurationFor(keys, outside) };

  const requests = [];
  for (const entry of entries) {
    let own;
    try { own = `https://${new URL(entry.url).hostname}/`; } catch (e) { continue; }
    const type = TYPES[entry.type] || entry.type;
    let page = 'https://www.example.com/';
    try { if (new URL(entry.sourceUrl).hostname !== '') { page = entry.sourceUrl; } } catch (e) { /* placeholder */ }
    requests.push({ url: entry.url, site: page, type });
    requests.push({ url: entry.url, site: own, type });
    for (const site of SITES) { requests.push({ url: entry.url, site, type: 'script' }); }
  }
  // Every tracker of the scope, from its own site, a sibling under it and unrelated sites; and
  // every CNAME host.
  for (const key of [...scope.keys].sort()) {
    for (const site of [`https://${key}/`, `https://other.sub.${key}/`].concat(SITES)) {
      requests.push({ url: `https://sub.${key}/x.js?a=1`, site, type: 'script' });
      requests.push({ url: `https://${key}/analytics.js`, site, type: 'script' });
    }
  }
  for (const host of Object.keys(tds.cnames || {})) {
    requests.push({ url: `https://${host}/x.js`, site: `https://${host}/`, type: 'script' });
    requests.push({ url: `https://${host}/x.js`, site: 'https://www.example.com/', type: 'script' });
  }

  const lean = render(Object.assign({ blockInScript: false }, inputs));
  const full = render(Object.assign({ blockInScript: true }, inputs));
  const { mismatches, counts } = checkLean(requests, inputs, helpers.runBlocking(lean.blocking).api, scope);
  const leanBytes = lean.manifest.files['blocking.js'].sizes.trackerData;
  const fullBytes = full.manifest.files['blocking.js'].sizes.trackerData;
  t.diagnostic(`${requests.length} requests: ${JSON.stringify(counts)}; ${scope.keys.size} of `
    + `${Object.keys(tds.trackers).length} trackers in the scope; tracker data ${leanBytes} bytes (all: ${fullBytes})`);
  assert.deepEqual(mismatches.slice(0, 10), []);
  assert.ok(counts.redirects > 100 && counts.inScope > 1000, JSON.stringify(counts));
  assert.equal(lean.manifest.files['blocking.js'].trackerDataScope, 'surrogateTrackers');
  assert.ok(leanBytes < fullBytes / 4, `lean ${leanBytes} bytes, all ${fullBytes}`);
});
