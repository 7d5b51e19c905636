'use strict';
// A page for the page protections of blocking.js (navigator.globalPrivacyControl,
// document.referrer, document.cookie): a vm context whose window has Navigator and Document
// classes with the browser's accessors on their prototypes, a cookie jar behind the native
// document.cookie setter, and the frame's place (top page, cross-origin frame with
// location.ancestorOrigins). Rendering goes through `trackerless scripts`, as in the resolver
// tests, with the user's GPC setting.

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const vm = require('node:vm');
const { execFileSync } = require('node:child_process');
const helpers = require('../resolver/helpers.js');

const suites = path.join(helpers.sharedData, 'privacy-reference-tests');

// Renders blocking.js; options: tds, privacyConfig, allowlist (files), gpc ('on' | 'off'),
// blockInScript (default false, as WebKit hosts render it).
function render(options) {
  const output = fs.mkdtempSync(path.join(os.tmpdir(), 'trackerless-protections-'));
  try {
    const args = ['scripts', '--templates', path.join(helpers.repoRoot, 'JSTemplates'), '--secret', helpers.SECRET,
      '--output', path.join(output, 'scripts')];
    if (options.tds) { args.push('--tds', options.tds); }
    if (options.privacyConfig) { args.push('--privacy-config', options.privacyConfig); }
    if (options.allowlist) { args.push('--allowlist', options.allowlist); }
    if (options.gpc) { args.push('--gpc', options.gpc); }
    if (options.blockInScript) { args.push('--block-in-script'); }
    execFileSync(helpers.binary(), args, { stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 28 });
    return fs.readFileSync(path.join(output, 'scripts', 'blocking.js'), 'utf8');
  } finally {
    fs.rmSync(output, { recursive: true, force: true });
  }
}

// A file in a fresh temporary directory holding `value` as JSON.
function jsonFile(name, value) {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'trackerless-protections-input-')), name);
  fs.writeFileSync(file, JSON.stringify(value));
  return file;
}

// Runs `source` in a new page. options: url (the document's URL), top (the top page's URL when
// this document is a frame; its origin is all a cross-origin frame learns, through
// location.ancestorOrigins), referrer (what the browser's document.referrer gives), before (a
// function given `run(code)` in the page before the script starts).
function openPage(source, options) {
  const written = [];
  const jar = new Map();
  class Navigator {}
  Object.defineProperty(Navigator.prototype, 'userAgent', { get() { return 'test'; }, enumerable: true, configurable: true });
  class Document {}
  const referrer = options.referrer || '';
  Object.defineProperty(Document.prototype, 'referrer', {
    get: function referrer_() { return this === document ? referrer : ''; }, enumerable: true, configurable: true
  });
  // The browser's jar, simply: Max-Age (wins) or Expires (Date.parse) gives the expiry, a past
  // one removes the cookie.
  Object.defineProperty(Document.prototype, 'cookie', {
    get() { return [...jar.entries()].map(([name, cookie]) => name + '=' + cookie.value).join('; '); },
    set(value) {
      written.push(value);
      const text = String(value);
      const [pair, ...attributes] = text.split(';');
      const equals = pair.indexOf('=');
      const name = pair.slice(0, equals).trim();
      let maxAge = null;
      let expires = null;
      for (const attribute of attributes) {
        const [key, ...rest] = attribute.split('=');
        const attributeValue = rest.join('=').trim();
        if (key.trim().toLowerCase() === 'max-age' && /^-?[0-9]+$/.test(attributeValue)) { maxAge = Number(attributeValue); }
        if (key.trim().toLowerCase() === 'expires' && !Number.isNaN(Date.parse(attributeValue))) {
          expires = Date.parse(attributeValue) / 1000;
        }
      }
      const now = Date.now() / 1000;
      const expiry = maxAge !== null ? now + maxAge : expires;
      if (expiry !== null && expiry <= now) {
        jar.delete(name);
      } else {
        jar.set(name, { value: pair.slice(equals + 1).trim(), lifetime: expiry === null ? -1 : Math.round(expiry - now) });
      }
    },
    enumerable: true,
    configurable: true
  });
  const document = new Document();
  const sandbox = {
    URL, console, setTimeout, clearTimeout, Navigator, Document,
    navigator: new Navigator(),
    document,
    location: { href: options.url, ancestorOrigins: options.top ? [new URL(options.top).origin] : [] },
    webkit: { messageHandlers: { trackerless: { postMessage() {} } } }
  };
  const context = vm.createContext(sandbox);
  const global = vm.runInContext('this', context);
  global.window = global;
  global.self = global;
  if (options.top) {
    // A cross-origin top: reading its location throws, as in a browser.
    global.top = { get location() { throw new Error('SecurityError: cross-origin'); } };
  } else {
    global.top = global;
  }
  if (options.before) { options.before((code) => vm.runInContext(code, context)); }
  vm.runInContext(source, context, { filename: 'blocking.js' });
  return {
    context,
    global,
    written,
    jar,
    // Runs `code` as the script at `url`: its functions' stack frames carry that URL.
    runAs(code, url) { return vm.runInContext(code, context, { filename: url }); },
    evaluate(code) { return vm.runInContext(code, context, { filename: 'https://page-script.invalid/inline.js' }); }
  };
}

// A suite folder with a configuration and a tracker data: its inputs, why its tests cannot run
// (null when they can), and blocking.js rendered from them, once.
function suite(name) {
  const folder = path.join(suites, name);
  const inputs = { privacyConfig: path.join(folder, 'config_reference.json'), tds: path.join(folder, 'tracker_radar_reference.json') };
  const skip = helpers.missing([inputs.privacyConfig, inputs.tds, path.join(folder, 'tests.json')]);
  let source = null;
  return {
    inputs,
    skip,
    script() {
      if (source === null) { source = render(inputs); }
      return source;
    }
  };
}

// Every case of a suite's tests.json, with its set's key.
function cases(folder) {
  const all = [];
  for (const [set, value] of Object.entries(helpers.readJSON(path.join(suites, folder, 'tests.json')))) {
    for (const test of value.tests) { all.push(Object.assign({ set }, test)); }
  }
  return all;
}

module.exports = { helpers, suites, suite, render, jsonFile, openPage, cases };
