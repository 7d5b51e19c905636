'use strict';
// Shared by the resolver tests: where the shared data and the `trackerless` binary are, rendering
// blocking.js with `trackerless scripts`, and running it in a vm context with a small fake page.

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const vm = require('node:vm');
const { execFileSync } = require('node:child_process');

const repoRoot = path.resolve(__dirname, '..', '..', '..');
const sharedData = path.resolve(repoRoot, '..', 'shared', 'data');
const domainMatching = path.join(sharedData, 'privacy-reference-tests', 'tracker-radar-tests', 'TR-domain-matching');
const requireShared = process.env.TRACKERLESS_REQUIRE_SHARED_DATA === '1';
const SECRET = '0123456789abcdef0123456789abcdef';

function binary() {
  return process.env.TRACKERLESS_BIN || path.join(repoRoot, '.build', 'debug', 'trackerless');
}

// Why the tests that need `files` (under the shared data) and the binary cannot run; null when
// they can. With TRACKERLESS_REQUIRE_SHARED_DATA=1 a missing input is a failure, not a skip.
function missing(files) {
  const absent = files.filter((file) => !fs.existsSync(file));
  let reason = null;
  if (absent.length > 0) {
    reason = `shared data not found: ${absent.join(', ')}`;
  } else if (!fs.existsSync(binary())) {
    reason = `trackerless binary not found at ${binary()} (build it, or set TRACKERLESS_BIN)`;
  } else if (!hasScriptsCommand()) {
    reason = `${binary()} has no "scripts" command (rebuild it)`;
  }
  if (reason !== null && requireShared) {
    throw new Error(`${reason} (TRACKERLESS_REQUIRE_SHARED_DATA=1)`);
  }
  return reason;
}

let scriptsCommand = null;
function hasScriptsCommand() {
  if (scriptsCommand === null) {
    try {
      execFileSync(binary(), ['scripts', '--help'], { stdio: 'pipe' });
      scriptsCommand = true;
    } catch (e) {
      scriptsCommand = false;
    }
  }
  return scriptsCommand;
}

// Renders blocking.js from this checkout's templates with `trackerless scripts`.
// options: tds, surrogates (surrogates.txt or a directory), privacyConfig, allowlist (files);
// blockInScript (true unless false), batchInterval, debug, bridge.
function renderBlocking(options) {
  const output = fs.mkdtempSync(path.join(os.tmpdir(), 'trackerless-resolver-'));
  try {
    const args = ['scripts', '--templates', path.join(repoRoot, 'JSTemplates'), '--secret', SECRET,
      '--bridge', options.bridge || 'webkit', '--output', path.join(output, 'scripts')];
    if (options.tds) { args.push('--tds', options.tds); }
    if (options.surrogates) { args.push('--surrogates', options.surrogates); }
    if (options.privacyConfig) { args.push('--privacy-config', options.privacyConfig); }
    if (options.allowlist) { args.push('--allowlist', options.allowlist); }
    // Unless a test asks for blockInScript: false, render with --block-in-script: only then does the
    // data hold every tracker (without it, only those a surrogate can stand in for; see
    // surrogate-scope.test.js), and these tests compare every decision with the Swift resolver's.
    if (options.blockInScript !== false) { args.push('--block-in-script'); }
    if (options.blockKeepalive) { args.push('--block-keepalive'); }
    if (options.debug) { args.push('--debug'); }
    if (options.batchInterval) { args.push('--batch-interval', String(options.batchInterval)); }
    execFileSync(binary(), args, { stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 28 });
    return fs.readFileSync(path.join(output, 'scripts', 'blocking.js'), 'utf8');
  } finally {
    fs.rmSync(output, { recursive: true, force: true });
  }
}

// A context whose global is a minimal window: what the resolver and the bridge need, plus
// recorded messages. `extra` adds or replaces globals before the script runs.
function createPage(extra) {
  const posted = [];
  // When each message was posted (Date.now()), so that tests measure the script's spacing, not
  // how late a loaded machine let them look.
  const postTimes = [];
  const sandbox = {
    URL, console, setTimeout, clearTimeout,
    location: { href: 'https://site.example/' },
    // WebKit hands the host a copy of the message (structured clone), not the page's object.
    webkit: { messageHandlers: { trackerless: { postMessage(message) { posted.push(structuredClone(message)); postTimes.push(Date.now()); } } } }
  };
  const context = vm.createContext(sandbox);
  const global = vm.runInContext('this', context);
  global.window = global;
  global.top = global;
  global.self = global;
  Object.assign(global, extra || {});
  return { context, global, posted, postTimes };
}

// Runs the rendered script in a page and returns its internal API (decide, flush, ...).
function runBlocking(source, page) {
  page = page || createPage();
  let api = null;
  page.global.__trackerlessTestHook = (value) => { api = value; };
  vm.runInContext(source, page.context, { filename: 'blocking.js' });
  delete page.global.__trackerlessTestHook;
  if (api === null) { throw new Error('blocking.js did not call the test hook'); }
  return { api, page };
}

function readJSON(file) {
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

// Runs `trackerless resolve` on requests [{url, site, type}] (each `site` sent as the top page,
// `top`, the key resolve reads) and returns its decisions, without
// the entry that decided each (`decidedBy`): the JavaScript resolvers decide the same but do not
// say why, and the Swift tests check the entries (DecidingEntry*Tests).
function resolveWithSwift(requests, options) {
  const args = ['resolve'];
  if (options.tds) { args.push('--tds', options.tds); }
  if (options.surrogates) { args.push('--surrogates', options.surrogates); }
  if (options.privacyConfig) { args.push('--privacy-config', options.privacyConfig); }
  if (options.allowlist) { args.push('--allowlist', options.allowlist); }
  const input = requests.map((request) => JSON.stringify({ url: request.url, top: request.site, type: request.type })).join('\n') + '\n';
  const output = execFileSync(binary(), args, { input, maxBuffer: 1 << 28, stdio: ['pipe', 'pipe', 'pipe'] });
  return output.toString('utf8').split('\n').filter((line) => line !== '').map((line) => {
    const decision = JSON.parse(line);
    if (decision !== null && typeof decision === 'object') { delete decision.decidedBy; }
    return decision;
  });
}

// The JS decision in the form `trackerless resolve` writes.
function asResolveOutput(decision) {
  if (decision === null) { return null; }
  const result = { action: decision.action };
  if (decision.surrogate !== undefined) { result.surrogate = decision.surrogate; }
  result.reason = decision.reason;
  if (decision.tracker !== undefined) { result.tracker = decision.tracker; }
  if (decision.owner !== undefined) { result.entity = decision.owner; }
  return result;
}

// A privacy configuration with content blocking and the tracker allowlist on, around an
// allowlist file's `allowlistedTrackers` object (for the tracker-allowlist reference tests).
function allowlistConfiguration(allowlistFile) {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'trackerless-config-')), 'config.json');
  fs.writeFileSync(file, JSON.stringify({
    features: {
      contentBlocking: { state: 'enabled', exceptions: [] },
      trackerAllowlist: { state: 'enabled', exceptions: [], settings: { allowlistedTrackers: readJSON(allowlistFile) } }
    },
    unprotectedTemporary: []
  }));
  return file;
}

// Every field `trackerless resolve` writes, for every request: the mismatches.
function compareWithSwift(requests, options, api) {
  const swift = resolveWithSwift(requests, options);
  if (swift.length !== requests.length) { throw new Error(`resolve answered ${swift.length} of ${requests.length} requests`); }
  const mismatches = [];
  for (let i = 0; i < requests.length; i++) {
    const js = asResolveOutput(api.decide(requests[i].url, requests[i].site, requests[i].type));
    if (JSON.stringify(js) !== JSON.stringify(swift[i])) { mismatches.push({ request: requests[i], js, swift: swift[i] }); }
  }
  return mismatches;
}

module.exports = {
  repoRoot, sharedData, domainMatching, SECRET,
  binary, missing, renderBlocking, createPage, runBlocking, readJSON, resolveWithSwift, asResolveOutput, compareWithSwift,
  allowlistConfiguration
};
