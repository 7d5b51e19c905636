'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { createPage, assertQuiet } = require('./page.js');

// The analytics.js snippet as Google publishes it, less the script element it inserts.
const analyticsSnippet = `
  (function (i, r) {
    i.GoogleAnalyticsObject = r;
    i[r] = i[r] || function () { (i[r].q = i[r].q || []).push(arguments); };
    i[r].l = 1 * new Date();
  })(window, 'ga');
`;

test('analytics.js: the published snippet, a pageview and an event with hitCallback', async () => {
  const page = createPage();
  let hits = 0;
  page.window.onHit = () => { hits += 1; };
  page.run(analyticsSnippet + `
    ga('create', 'UA-12345-1', 'auto');
    ga('send', 'pageview', { hitCallback: onHit });
  `);
  page.load('analytics.js');
  page.run(`
    ga('send', 'event', 'outbound', 'click', 'https://example.org/', { transport: 'beacon', hitCallback: onHit });
    ga('send', { hitType: 'event', eventCategory: 'x', eventAction: 'y', hitCallback: onHit });
  `);
  assert.equal(hits, 0, 'hitCallback runs asynchronously');
  await page.settle();
  assert.equal(hits, 3);
  assert.equal(page.run('ga.q'), undefined, 'the queue was replaced');
  assert.equal(page.run('ga.loaded'), true);
  assertQuiet(assert, page);
});

test('analytics.js: trackers, named trackers, ready callbacks, plugins and the linker', async () => {
  const page = createPage();
  page.run(analyticsSnippet + `
    var ready = [];
    ga(function (tracker) { ready.push(tracker && tracker.get('trackingId')); });
    ga('create', 'UA-1-1', 'auto', 'second');
    ga('create', { trackingId: 'UA-2-2', cookieDomain: 'auto' });
  `);
  page.load('analytics.js');
  page.run(`
    ga(function () { ready.push(ga.getAll().length); });
    ga('second.set', 'dimension1', 'x');
    ga('second.send', 'pageview');
    function Plugin(tracker, options) { ready.push('plugin ' + tracker.get('name') + ' ' + options.answer); }
    ga('provide', 'myPlugin', Plugin);
    ga('require', 'myPlugin', { answer: 42 });
    ga('require', 'linker');
    ga('linker:autoLink', ['example.org']);
    ga('unknown command', 1, 2);
    ga();
    ga(null);
  `);
  await page.settle();
  assert.equal(page.run('ready.join("|")'), '|2|plugin t0 42');
  assert.equal(page.run("ga.getByName('second').get('dimension1')"), 'x');
  assert.equal(page.run("ga.getByName('t0').get('trackingId')"), 'UA-2-2');
  assert.equal(page.run("ga.getByName('nobody')"), null);
  assert.equal(page.run("ga.getAll()[0].get('linkerParam')"), '');
  assert.equal(page.run("new gaplugins.Linker(ga.getAll()[0]).decorate('https://example.org/x')"), 'https://example.org/x');
  page.run("ga.remove('second')");
  assert.equal(page.run('ga.getAll().length'), 1);
  assertQuiet(assert, page);
});

test('analytics.js: a renamed ga object and a hitCallback before any tracker', async () => {
  const page = createPage();
  let hits = 0;
  page.window.onHit = () => { hits += 1; };
  page.run(analyticsSnippet.replace("'ga'", "'__gaTracker'") + "__gaTracker('send', 'pageview', { hitCallback: onHit });");
  page.load('analytics.js');
  await page.settle();
  assert.equal(hits, 1);
  assert.equal(page.run('typeof __gaTracker.getAll'), 'function');
  assert.equal(page.run('typeof ga'), 'undefined');
});

test('analytics.js: an exception in a page callback does not stop the queue', async () => {
  const page = createPage();
  page.run(analyticsSnippet + `
    var after = 0;
    ga(function () { throw new Error('page bug'); });
    ga(function () { after += 1; });
  `);
  page.load('analytics.js');
  await page.settle();
  assert.equal(page.run('after'), 1);
  assert.deepEqual(page.uncaught.map((error) => error.message), ['page bug']);
});

test('ga.js: _gaq commands, _gat trackers, hitCallback, _link and _getLinkerUrl', async () => {
  const page = createPage();
  let hits = 0;
  page.window.onHit = () => { hits += 1; };
  page.run(`
    var _gaq = _gaq || [];
    _gaq.push(['_setAccount', 'UA-XXXXX-X']);
    _gaq.push(['_setDomainName', 'example.com'], ['_setAllowLinker', true]);
    _gaq.push(['_set', 'hitCallback', onHit]);
    _gaq.push(['_trackPageview']);
    _gaq.push(['b._setAccount', 'UA-YYYYY-Y'], ['b._trackEvent', 'c', 'a', 'l', 1]);
    var seen = [];
    _gaq.push(function () { seen.push(_gat._getTrackerByName()._getAccount()); });
  `);
  page.load('ga.js');
  page.run(`
    _gaq.push(['_trackEvent', 'Videos', 'Play', 'Gone With the Wind']);
    _gaq.push(['_unknownCommand'], 42, null, [], ['']);
    var pageTracker = _gat._getTracker('UA-1-1');
    pageTracker._trackPageview('/virtual');
    seen.push(pageTracker._getLinkerUrl('https://example.org/?a=1'));
    seen.push(_gat._getTrackerByName('b')._getAccount());
    _gaq.push(['_link', 'https://example.org/next']);
  `);
  await page.settle();
  assert.equal(hits, 1, 'hitCallback runs once, for the next hit');
  assert.equal(page.run("seen.join(' ')"), 'UA-XXXXX-X https://example.org/?a=1 UA-YYYYY-Y');
  assert.equal(page.run('Array.isArray(_gaq)'), false);
  assert.equal(page.run("_gaq.push(['_trackPageview'])"), 0);
  assert.deepEqual(page.navigations, ['https://example.org/next'], '_link navigates as the real one does');
  assertQuiet(assert, page);
});

test('inpage_linkid.js: leaves _gaq usable with or without ga.js', async () => {
  const page = createPage();
  page.load('inpage_linkid.js');
  page.run("_gaq.push(['_require', 'inpage_linkid', '//www.google-analytics.com/plugins/ga/inpage_linkid.js']);");
  page.load('ga.js');
  page.load('inpage_linkid.js');
  assert.equal(page.run("_gaq.push(['_trackPageview'])"), 0);
  assert.deepEqual(page.newGlobals(), ['_gaq', '_gat']);
  assertQuiet(assert, page);
});

// The gtag.js snippet as Google publishes it, less the script element.
const gtagSnippet = `
  window.dataLayer = window.dataLayer || [];
  function gtag() { dataLayer.push(arguments); }
  gtag('js', new Date());
  gtag('config', 'G-XXXXXXX');
`;

test('gtag.js: event_callback, get callbacks, consent and config commands', async () => {
  const page = createPage();
  const calls = [];
  page.window.record = (value) => { calls.push(value); };
  page.run(gtagSnippet + `
    gtag('consent', 'default', { ad_storage: 'denied' });
    gtag('event', 'purchase', { value: 1, event_callback: function () { record('before'); }, event_timeout: 2000 });
  `);
  page.load('gtag.js');
  page.run(`
    gtag('event', 'sign_up', { method: 'x', event_callback: function () { record('after'); } });
    gtag('get', 'G-XXXXXXX', 'client_id', function (value) { record('get ' + value); });
    gtag('set', { user_id: 'u' });
    gtag('event');
    gtag();
    dataLayer.push({ event: 'custom', eventCallback: function () { record('object'); } });
  `);
  assert.deepEqual(calls, []);
  await page.settle();
  assert.deepEqual(calls, ['before', 'after', 'get undefined', 'object']);
  assert.equal(page.run('dataLayer.length'), 10, 'the dataLayer keeps every entry');
  assertQuiet(assert, page);
});

test('gtm.js: eventCallback with eventTimeout, the anti-flicker snippet and ga()', async () => {
  const calls = [];
  const page = createPage({ globals: { record: (value) => { calls.push(value); } } });
  page.run(`
    (function (a, s, y, n, c, h, i, d, e) {
      s.className += ' ' + y;
      h.start = 1 * new Date();
      h.end = i = function () { s.className = s.className.replace(RegExp(' ?' + y), ''); record('shown'); };
      (a[n] = a[n] || []).hide = h;
      setTimeout(function () { i(); h.end = null; }, c);
    })(window, document.documentElement, 'async-hide', 'dataLayer', 4000, { 'GTM-XXXX': true });
    (function (w, l) {
      w[l] = w[l] || [];
      w[l].push({ 'gtm.start': new Date().getTime(), event: 'gtm.js' });
    })(window, 'dataLayer');
    dataLayer.push({ event: 'early', eventCallback: function () { record('early'); }, eventTimeout: 2000 });
  `);
  page.load('gtm.js');
  page.run(`
    dataLayer.push({ event: 'formSubmit', eventCallback: function () { record('late'); }, eventTimeout: 2000 });
    dataLayer.push(['event', 'x', { event_callback: function () { record('gtag'); } }]);
    dataLayer.push(null, 3, 'text', {});
    ga('send', 'event', 'a', 'b', { hitCallback: function () { record('ga'); } });
  `);
  await page.settle(100);
  assert.deepEqual(calls, ['early', 'shown', 'late', 'gtag', 'ga'], 'everything runs well before the timeouts');
  assert.equal(page.run('document.documentElement.className'), '');
  page.run("google_tag_manager['GTM-XXXX'].dataLayer.set('pageType', 'article')");
  assert.equal(page.run("google_tag_manager['GTM-XXXX'].dataLayer.get('pageType')"), 'article');
  assert.equal(page.run("google_tag_manager['GTM-YYYY'].dataLayer.get('pageType')"), undefined);
  assert.equal(page.run('google_tag_manager.then'), undefined);
  assert.deepEqual(page.newGlobals(), ['dataLayer', 'ga', 'google_tag_manager']);
  assertQuiet(assert, page);
});

test('gtm.js and gtag.js together, each loaded twice: every callback runs once', async () => {
  const page = createPage();
  let calls = 0;
  page.window.onEvent = () => { calls += 1; };
  page.run(gtagSnippet + "gtag('event', 'x', { event_callback: onEvent });");
  page.load('gtag.js');
  page.load('gtm.js');
  page.load('gtag.js');
  page.load('gtm.js');
  page.run("dataLayer.push({ event: 'y', eventCallback: onEvent }); gtag('event', 'z', { event_callback: onEvent });");
  await page.settle();
  assert.equal(calls, 3);
  assertQuiet(assert, page);
});

test('api.js: Content Experiments shows the original', () => {
  const page = createPage();
  page.load('api.js');
  assert.equal(page.run('cxApi.chooseVariation()'), 0);
  assert.equal(page.run("cxApi.getChosenVariation('exp')"), -1);
  page.run("cxApi.setChosenVariation(2, 'exp'); cxApi.setDomainName('.example.com'); cxApi.setAllowHash(true)");
  assert.equal(page.run("cxApi.getChosenVariation('exp')"), 2);
  assert.equal(page.run('cxApi.ORIGINAL_VARIATION + cxApi.NO_CHOSEN_VARIATION + cxApi.NOT_PARTICIPATING'), -3);
  assertQuiet(assert, page);
});
