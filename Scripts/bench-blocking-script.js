#!/usr/bin/env node
'use strict';
// Benchmark of the rendered blocking script in Node: start-up (evaluate the script and build its
// tables, in a fresh vm context each time) and the time of one decision over the real request
// URLs. Prints one JSON line: start-up median and maximum (ms) over fresh contexts; per decision
// the median and 99th percentile of single timed calls (each includes two clock reads), the mean
// of those, and the mean of an untimed loop (ns); the mean time of one rule match, every rule of
// the blocklist against every request URL (ns); CPU-time figures beside wall-clock ones, since
// a loaded machine stretches the latter; the 1-minute load average.
//
//   node Scripts/bench-blocking-script.js [--rendered blocking.js] [--tds FILE] [--requests FILE]
//                                         [--runs N] [--passes N] [--block-in-script]
// Without --rendered it renders blocking.js with `trackerless scripts` (TRACKERLESS_BIN, else
// .build/release/trackerless, else .build/debug/trackerless) from this checkout's templates:
// with --block-in-script the data holds every tracker, without it only the surrogate trackers
// (decisions for other trackers are then "no match").

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const vm = require('node:vm');
const { execFileSync } = require('node:child_process');

const repoRoot = path.resolve(__dirname, '..');
const sharedData = path.resolve(repoRoot, '..', 'shared', 'data');

function option(name, fallback) {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 && index + 1 < process.argv.length ? process.argv[index + 1] : fallback;
}

function binary() {
  if (process.env.TRACKERLESS_BIN) { return process.env.TRACKERLESS_BIN; }
  const release = path.join(repoRoot, '.build', 'release', 'trackerless');
  return fs.existsSync(release) ? release : path.join(repoRoot, '.build', 'debug', 'trackerless');
}

function render(tds) {
  const output = fs.mkdtempSync(path.join(os.tmpdir(), 'trackerless-bench-'));
  try {
    execFileSync(binary(), ['scripts', '--tds', tds, '--templates', path.join(repoRoot, 'JSTemplates'),
      '--secret', '0123456789abcdef0123456789abcdef', '--output', path.join(output, 'scripts')]
      .concat(process.argv.includes('--block-in-script') ? ['--block-in-script'] : []),
    { stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 28 });
    return fs.readFileSync(path.join(output, 'scripts', 'blocking.js'), 'utf8');
  } finally {
    fs.rmSync(output, { recursive: true, force: true });
  }
}

function median(sorted) { return sorted[Math.floor(sorted.length / 2)]; }
function percentile(sorted, p) { return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]; }

// A fresh context, the script evaluated in it; returns the script's resolver and the time taken.
// A comment unique to each run keeps V8 from reusing the previous compilation.
function start(source, run) {
  const context = vm.createContext({ URL, setTimeout, clearTimeout, location: { href: 'https://www.example.com/' } });
  const global = vm.runInContext('this', context);
  global.window = global;
  let api = null;
  global.__trackerlessTestHook = (value) => { api = value; };
  const text = `${source}\n//# run ${run}\n`;
  const cpu = process.cpuUsage();
  const begin = process.hrtime.bigint();
  vm.runInContext(text, context);
  const end = process.hrtime.bigint();
  const used = process.cpuUsage(cpu);
  // The first decision builds the tables the script keeps as text until then.
  const firstBegin = process.hrtime.bigint();
  api.decide('https://www.google-analytics.com/analytics.js', 'https://www.example.com/', 'script');
  const firstMs = Number(process.hrtime.bigint() - firstBegin) / 1e6;
  return { api, ms: Number(end - begin) / 1e6, cpuMs: (used.user + used.system) / 1e3, firstMs };
}

function requests(file) {
  const types = { xhr: 'xmlhttprequest', fetch: 'xmlhttprequest', sub_frame: 'subdocument', beacon: 'ping' };
  return JSON.parse(fs.readFileSync(file, 'utf8')).map((entry) => {
    let site = 'https://www.example.com/';
    try { if (new URL(entry.sourceUrl).hostname !== '') { site = entry.sourceUrl; } } catch (e) { /* placeholder */ }
    return { url: entry.url, site, type: types[entry.type] || entry.type };
  });
}

function main() {
  const tds = option('tds', path.join(sharedData, 'tds', 'apple-tds.json'));
  const renderedPath = option('rendered', null);
  const source = renderedPath ? fs.readFileSync(renderedPath, 'utf8') : render(tds);
  const runs = Number(option('runs', '20'));
  const passes = Number(option('passes', '5'));
  const list = requests(option('requests', path.join(sharedData, 'requests', 'matching-test-requests.json')));

  start(source, -1); // warm the isolate: the first context pays for code the others share
  const startups = [];
  const startupsCpu = [];
  const firstDecisions = [];
  let api = null;
  for (let run = 0; run < runs; run++) {
    const result = start(source, run);
    startups.push(result.ms);
    startupsCpu.push(result.cpuMs);
    firstDecisions.push(result.firstMs);
    api = result.api;
  }
  startups.sort((a, b) => a - b);
  startupsCpu.sort((a, b) => a - b);
  firstDecisions.sort((a, b) => a - b);

  // The first pass compiles the rules' regular expressions; it is timed apart.
  const firstBegin = process.hrtime.bigint();
  for (const request of list) { api.decide(request.url, request.site, request.type); }
  const firstPassNs = Number(process.hrtime.bigint() - firstBegin) / list.length;

  const each = new Float64Array(list.length * passes);
  let index = 0;
  let blocked = 0;
  const batchBegin = process.hrtime.bigint();
  for (let pass = 0; pass < passes; pass++) {
    for (const request of list) {
      const begin = process.hrtime.bigint();
      const decision = api.decide(request.url, request.site, request.type);
      each[index++] = Number(process.hrtime.bigint() - begin);
      if (decision !== null && decision.action === 'block') { blocked += 1; }
    }
  }
  const totalNs = Number(process.hrtime.bigint() - batchBegin);
  // Without a clock read around each call.
  const loopCpu = process.cpuUsage();
  const loopBegin = process.hrtime.bigint();
  for (let pass = 0; pass < passes; pass++) {
    for (const request of list) { api.decide(request.url, request.site, request.type); }
  }
  const loopNs = Number(process.hrtime.bigint() - loopBegin);
  const loopUsed = process.cpuUsage(loopCpu);
  const sorted = Array.from(each).sort((a, b) => a - b);

  // Rule matching alone: every rule of the blocklist against every request URL, as a decision
  // matches a tracker's rules (the rules are compiled first, apart).
  const rules = [];
  for (const key of Object.keys(JSON.parse(fs.readFileSync(tds, 'utf8')).trackers).sort()) {
    for (let index = 0; api.ruleMatches(key, index, 'https://www.example.com/') !== null; index++) { rules.push([key, index]); }
  }
  let ruleMatches = 0;
  const ruleCpu = process.cpuUsage();
  const ruleBegin = process.hrtime.bigint();
  for (const request of list) {
    for (const [key, index] of rules) { if (api.ruleMatches(key, index, request.url)) { ruleMatches += 1; } }
  }
  const ruleNs = Number(process.hrtime.bigint() - ruleBegin);
  const ruleUsed = process.cpuUsage(ruleCpu);
  console.log(JSON.stringify({
    benchmark: 'blocking-script',
    node: process.version,
    scriptBytes: Buffer.byteLength(source),
    startupRuns: runs,
    startupMedianMs: +median(startups).toFixed(3),
    startupMaxMs: +startups[startups.length - 1].toFixed(3),
    startupCpuMedianMs: +median(startupsCpu).toFixed(3),
    firstDecisionMedianMs: +median(firstDecisions).toFixed(3),
    requests: list.length,
    passes,
    firstPassMeanNs: Math.round(firstPassNs),
    decisionMedianNs: Math.round(median(sorted)),
    decisionP99Ns: Math.round(percentile(sorted, 0.99)),
    decisionMeanNs: Math.round(totalNs / (list.length * passes)),
    decisionLoopMeanNs: Math.round(loopNs / (list.length * passes)),
    decisionLoopCpuMeanNs: Math.round((loopUsed.user + loopUsed.system) * 1000 / (list.length * passes)),
    rules: rules.length,
    ruleMatches,
    ruleMatchMeanNs: +(ruleNs / (rules.length * list.length)).toFixed(1),
    ruleMatchCpuMeanNs: +((ruleUsed.user + ruleUsed.system) * 1000 / (rules.length * list.length)).toFixed(1),
    loadAverage: require('node:os').loadavg()[0],
    blockedPerPass: blocked / passes
  }));
}

main();
