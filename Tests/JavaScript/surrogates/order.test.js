'use strict';
// The blocking script can run a surrogate as soon as it sees the script element, before the
// page's own snippet that follows the element has run. The snippets keep what is there.
const test = require('node:test');
const assert = require('node:assert/strict');
const { createPage, assertQuiet } = require('./page.js');

test('surrogates loaded before the page snippets they stand behind', async () => {
  const calls = [];
  const page = createPage({ globals: { record: (value) => { calls.push(value); } } });
  for (const name of ['analytics.js', 'ga.js', 'gpt.js', 'adsbygoogle.js', 'amzn_apstag.js', 'fbevents.js',
    'fb-sdk.js', 'youtube-iframe-api.js', 'gtm.js']) {
    page.load(name);
  }
  page.addElement('ins', { class: 'adsbygoogle' });
  page.run(`
    window.ga = window.ga || function () { (ga.q = ga.q || []).push(arguments); }; ga.l = +new Date;
    ga('create', 'UA-1-1', 'auto');
    ga('send', 'pageview', { hitCallback: function () { record('ga'); } });
    var _gaq = _gaq || [];
    _gaq.push(['_setAccount', 'UA-1-1'], ['_set', 'hitCallback', function () { record('_gaq'); }], ['_trackPageview']);
    window.googletag = window.googletag || { cmd: [] };
    googletag.cmd.push(function () { record('googletag'); });
    (adsbygoogle = window.adsbygoogle || []).push({});
    !function (a9, a) { if (a[a9]) return; a[a9] = { _Q: [] }; }('apstag', window);
    apstag.fetchBids({ slots: [] }, function () { record('apstag'); });
    !function (f) { if (f.fbq) return; f.fbq = function () { record('snippet fbq'); }; }(window);
    fbq('init', '1');
    window.fbAsyncInit = function () { record('fbAsyncInit'); };
    function onYouTubeIframeAPIReady() { record('YouTube'); }
    window.dataLayer = window.dataLayer || [];
    dataLayer.push({ event: 'x', eventCallback: function () { record('dataLayer'); } });
  `);
  await page.settle();
  assert.deepEqual(calls.sort(), ['_gaq', 'apstag', 'dataLayer', 'fbAsyncInit', 'ga', 'googletag', 'YouTube'].sort());
  assert.equal(page.window.document.querySelector('ins.adsbygoogle').getAttribute('data-ad-status'), 'unfilled');
  assertQuiet(assert, page);
});
