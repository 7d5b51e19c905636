'use strict';
// What holds for every surrogate whatever the page does: it defines only the globals of the
// library it stands for, loads twice without harm, never throws on odd calls and never makes a
// request.
const test = require('node:test');
const assert = require('node:assert/strict');
const { createPage, surrogateNames, assertQuiet } = require('./page.js');

const globalsBySurrogate = {
  'ad_status.js': ['google_ad_status'],
  'adsbygoogle.js': ['adsbygoogle'],
  'amzn_ads.js': ['aax_render_ad', 'aax_write', 'amzn_ads', 'amznads'],
  'amzn_apstag.js': ['apstag'],
  'analytics.js': ['ga', 'gaplugins'],
  'api.js': ['cxApi'],
  'beacon.js': ['COMSCORE', 'udm_'],
  'chartbeat.js': ['pSUPERFLY', 'pSUPERFLY_mab'],
  'criteo.js': ['Criteo'],
  'fb-sdk.js': ['FB'],
  'fbevents.js': ['_fbq', 'fbq'],
  'ga.js': ['_gaq', '_gat'],
  'google-ima.js': ['google'],
  'gpt.js': ['googletag'],
  'gtag.js': ['dataLayer'],
  'gtm.js': ['dataLayer', 'ga', 'google_tag_manager'],
  'inpage_linkid.js': ['_gaq'],
  'nielsen.js': ['nol_t'],
  'noop.js': [],
  'outbrain.js': ['OBR', 'OBR$', 'OB_PROXY', 'outbrain', 'outbrain_rater'],
  'quant.js': ['__qc', 'quantserve'],
  'youtube-iframe-api.js': ['YT', 'YTConfig']
};

const oddArguments = [
  [], [undefined], [null], ['x'], [0], [{}], [[]], [function () {}],
  ['x', null, {}], [{ hitCallback: 1, eventCallback: 'x', event_callback: null }], [1, 2, 3, 4, 5, 6]
];

// Calls every function reachable from `value` with every odd argument list; constructors (a name
// that starts with a capital) with `new`. What the calls return is explored too, to `depth`.
function callEverything(value, depth, seen) {
  if (depth === 0 || value === null || (typeof value !== 'object' && typeof value !== 'function') || seen.has(value)) return;
  seen.add(value);
  for (const key of Object.keys(value)) {
    let member;
    try {
      member = value[key];
    } catch (error) {
      continue;
    }
    if (typeof member === 'function') {
      for (const args of oddArguments) {
        const result = /^[A-Z]/.test(key) ? Reflect.construct(member, args) : Reflect.apply(member, value, args);
        callEverything(result, depth - 1, seen);
      }
    }
    callEverything(member, depth - 1, seen);
  }
}

for (const name of surrogateNames()) {
  test(`${name}: on an empty page defines only ${JSON.stringify(globalsBySurrogate[name])}, twice without harm`, async () => {
    assert.ok(name in globalsBySurrogate, 'the list of globals names this surrogate');
    const page = createPage();
    page.load(name);
    page.load(name);
    await page.settle();
    assert.deepEqual(page.newGlobals(), globalsBySurrogate[name]);
    assertQuiet(assert, page);
  });

  test(`${name}: odd calls to everything it defines throw nothing and send nothing`, async () => {
    const page = createPage();
    page.load(name);
    const seen = new Set();
    for (const global of globalsBySurrogate[name]) {
      const value = page.window[global];
      if (typeof value === 'function') {
        for (const args of oddArguments) Reflect.apply(value, page.window, args);
      }
      // Queues that are still arrays, and no-op objects that answer any method name.
      if (value && typeof value.push === 'function') {
        for (const args of oddArguments) value.push(...args);
      }
      if (value && typeof value === 'object' && typeof value.anyMethodAtAll === 'function') value.anyMethodAtAll(1);
      callEverything(value, 4, seen);
    }
    await page.settle();
    page.load(name);
    await page.settle();
    assertQuiet(assert, page);
  });
}

test('a page that replaced Array.prototype.push and JSON before the surrogates loaded', async () => {
  const page = createPage();
  page.run(`
    window.dataLayer = [];
    window.googletag = { cmd: [] };
    Array.prototype.push = function () { throw new Error('page replaced push'); };
    JSON = { stringify: function () { throw new Error('page replaced JSON'); } };
  `);
  for (const name of surrogateNames()) page.load(name);
  await page.settle();
  assertQuiet(assert, page);
});
