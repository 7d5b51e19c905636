'use strict';
// Every surrogate in a real engine: WebKitGTK, through Tests/WebKitTests/harness. A page-world
// user script holds the surrogates as the blocking script does (an object of functions); each page
// runs its vendor's snippet, calls `runSurrogate()` where the script element would load, drives
// the API and records what its callbacks saw. The loopback proxy must receive nothing but the page.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { repoRoot, surrogateNames, surrogateSource } = require('./page.js');

const python = '/usr/bin/python3';
const harness = path.join(repoRoot, 'Tests', 'WebKitTests', 'harness', 'userscript_harness.py');

// name: [page markup, page script, what the page records].
const pages = {
  'ad_status.js': ['', 'runSurrogate(); record(google_ad_status);', ['1']],
  'adsbygoogle.js': ['<ins class="adsbygoogle" data-ad-client="ca-pub-1" data-ad-slot="1"></ins>', `
    (adsbygoogle = window.adsbygoogle || []).push({});
    runSurrogate();
    record(document.querySelector('ins.adsbygoogle').getAttribute('data-ad-status'));`, ['unfilled']],
  'amzn_ads.js': ['', "runSurrogate(); amznads.getAdsCallback('1', function () { record('ads'); }, 2000);", ['ads']],
  'amzn_apstag.js': ['', `
    !function (a9, a) { if (a[a9]) return; function q(c, r) { a[a9]._Q.push([c, r]); }
      a[a9] = { init: function () { q('i', arguments); }, fetchBids: function () { q('f', arguments); }, _Q: [] }; }('apstag', window);
    apstag.init({ pubID: '1', adServer: 'googletag' });
    apstag.fetchBids({ slots: [], timeout: 2e3 }, function (bids) { record('bids ' + bids.length); });
    runSurrogate();`, ['bids 0']],
  'analytics.js': ['', `
    (function (i, r) { i.GoogleAnalyticsObject = r; i[r] = i[r] || function () { (i[r].q = i[r].q || []).push(arguments); }; i[r].l = 1 * new Date(); })(window, 'ga');
    ga('create', 'UA-1-1', 'auto');
    ga('send', 'pageview', { hitCallback: function () { record('pageview'); } });
    runSurrogate();
    ga('send', 'event', 'a', 'b', { hitCallback: function () { record('event'); } });`, ['pageview', 'event']],
  'api.js': ['', 'runSurrogate(); record(cxApi.chooseVariation());', ['0']],
  'beacon.js': ['', "var _comscore = [{ c1: '2', c2: '1' }]; runSurrogate(); COMSCORE.beacon({ c1: '2' }); record(_comscore.length);", ['0']],
  'chartbeat.js': ['', "runSurrogate(); pSUPERFLY.virtualPage('/next'); pSUPERFLY_mab.whatever(); record('ok');", ['ok']],
  'criteo.js': ['', `
    window.Criteo = window.Criteo || {}; Criteo.events = Criteo.events || [];
    Criteo.events.push(function () { Criteo.RequestBids([], function () { record('bids'); }, 2000); });
    runSurrogate();`, ['bids']],
  'fb-sdk.js': ['', `
    window.fbAsyncInit = function () {
      FB.init({ appId: '1', xfbml: true, version: 'v19.0' });
      FB.getLoginStatus(function (response) { record(response.status); });
    };
    runSurrogate();`, ['unknown']],
  'fbevents.js': ['', `
    !function (f) { if (f.fbq) return; var n = f.fbq = function () { n.callMethod ? n.callMethod.apply(n, arguments) : n.queue.push(arguments); };
      if (!f._fbq) f._fbq = n; n.push = n; n.loaded = !0; n.version = '2.0'; n.queue = []; }(window);
    fbq('init', '1'); fbq('track', 'PageView');
    runSurrogate();
    fbq('track', 'Lead'); record(fbq.queue.length);`, ['0']],
  'ga.js': ['', `
    var _gaq = _gaq || [];
    _gaq.push(['_setAccount', 'UA-1-1'], ['_set', 'hitCallback', function () { record('hit'); }], ['_trackPageview']);
    runSurrogate();
    record(_gat._getTracker('UA-1-1')._getLinkerUrl('https://a.example/'));`, ['https://a.example/', 'hit']],
  'google-ima.js': ['<div id="ads"></div><video id="content"></video>', `
    runSurrogate();
    var video = document.getElementById('content');
    var container = new google.ima.AdDisplayContainer(document.getElementById('ads'), video);
    var loader = new google.ima.AdsLoader(container);
    loader.addEventListener(google.ima.AdsManagerLoadedEvent.Type.ADS_MANAGER_LOADED, function () { record('ads'); }, false);
    loader.addEventListener(google.ima.AdErrorEvent.Type.AD_ERROR, function (event) {
      record('content ' + event.getError().getErrorCode());
    }, false);
    var request = new google.ima.AdsRequest(); request.adTagUrl = 'https://ads.example/vast';
    container.initialize(); loader.requestAds(request);`, ['content 1009']],
  'gpt.js': ['<div id="ad1"></div>', `
    window.googletag = window.googletag || { cmd: [] };
    googletag.cmd.push(function () {
      googletag.defineSlot('/1/x', [300, 250], 'ad1').addService(googletag.pubads());
      googletag.pubads().addEventListener('slotRenderEnded', function (event) { record('empty ' + event.isEmpty); });
      googletag.enableServices();
      record('queued');
    });
    runSurrogate();
    googletag.cmd.push(function () { googletag.display('ad1'); record('pushed'); });`, ['queued', 'pushed', 'empty true']],
  'gtag.js': ['', `
    window.dataLayer = window.dataLayer || []; function gtag() { dataLayer.push(arguments); }
    gtag('js', new Date()); gtag('config', 'G-1');
    gtag('event', 'x', { event_callback: function () { record('event'); } });
    runSurrogate();
    gtag('get', 'G-1', 'client_id', function () { record('get'); });`, ['event', 'get']],
  'gtm.js': ['', `
    window.dataLayer = window.dataLayer || []; dataLayer.push({ 'gtm.start': new Date().getTime(), event: 'gtm.js' });
    dataLayer.push({ event: 'x', eventCallback: function () { record('early'); }, eventTimeout: 2000 });
    runSurrogate();
    dataLayer.push({ event: 'y', eventCallback: function () { record('late'); }, eventTimeout: 2000 });`, ['early', 'late']],
  'inpage_linkid.js': ['', "runSurrogate(); _gaq.push(['_require', 'inpage_linkid']); record(typeof _gaq.push);", ['function']],
  'nielsen.js': ['', "runSurrogate(); nol_t({ cid: 'x', content: '0' }).record().post(); record('ok');", ['ok']],
  'noop.js': ['', "runSurrogate(); record('ok');", ['ok']],
  'quant.js': ['', `
    window._qevents = window._qevents || []; _qevents.push({ qacct: 'p-1' });
    runSurrogate();
    _qevents.push({ qacct: 'p-1', labels: 'next' }); quantserve(); record(_qevents.length);`, ['0']],
  'outbrain.js': ['<div class="OUTBRAIN" data-widget-id="AR_1"></div>', `
    runSurrogate(); OBR.extern.researchWidget();
    OBR.extern.callRecs({ widgetId: 'JS_1' }, function (json) { record(json.doc.length); });`, ['0']],
  'youtube-iframe-api.js': ['<div id="player"></div>', `
    function onYouTubeIframeAPIReady() {
      new YT.Player('player', { videoId: 'x', events: { onReady: function (event) {
        event.target.playVideo();
        record('ready ' + event.target.getPlayerState());
      } } });
    }
    runSurrogate();`, ['ready -1']]
};

function pageHTML(name, markup, script) {
  return `<!doctype html><html><head><title>loading</title></head><body>${markup}<script>
var calls = [], errors = [];
window.addEventListener('error', function (event) { errors.push(String(event.message)); });
function record(value) { calls.push(String(value)); }
function runSurrogate() { __surrogates[${JSON.stringify(name)}].call(window); }
try {${script}
} catch (error) { errors.push('page: ' + error); }
setTimeout(function () { document.title = 'done'; }, 100);
</script></body></html>`;
}

function webKitMissing() {
  if (!fs.existsSync(python) || !fs.existsSync(harness)) return `no ${python} or no ${harness}`;
  const importWebKit = "import gi; gi.require_version('WebKit2', '4.1'); from gi.repository import WebKit2";
  const probe = spawnSync(python, ['-c', importWebKit], { encoding: 'utf8' });
  return probe.status === 0 ? null : `${python} cannot import WebKit2 4.1 (see Tests/WebKitTests/harness/README.md)`;
}

test('every surrogate in WebKitGTK: the page snippet works, nothing is requested', (t) => {
  const missing = webKitMissing();
  if (missing) {
    t.skip(missing);
    return;
  }
  const names = surrogateNames();
  assert.deepEqual(Object.keys(pages).sort(), names, 'a page for every surrogate');
  const table = names.map((name) => JSON.stringify(name) + ': function () {\n' + surrogateSource(name) + '\n}').join(',\n');
  const resources = {};
  const specPages = names.map((name) => {
    const url = 'https://surrogates.example/' + name;
    resources[url] = { type: 'text/html; charset=utf-8', body: pageHTML(name, pages[name][0], pages[name][1]) };
    return { id: name, url, timeout: 10, settle: 0.1, leave: false, result: '({ calls: calls, errors: errors })' };
  });
  const spec = {
    scripts: [{ source: 'window.__surrogates = {\n' + table + '\n};', world: null, frames: 'all', time: 'start' }],
    resources,
    pages: specPages
  };
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'surrogates-webkit-'));
  try {
    const specFile = path.join(directory, 'spec.json');
    fs.writeFileSync(specFile, JSON.stringify(spec));
    const run = spawnSync(python, [harness, specFile], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, timeout: 280000 });
    assert.equal(run.status, 0, run.stderr);
    const output = JSON.parse(run.stdout);
    for (const page of output.pages) {
      const expected = pages[page.id][2];
      assert.equal(page.done, true, `${page.id}: the page finished (${JSON.stringify(page.result)})`);
      assert.deepEqual(page.result, { calls: expected, errors: [] }, page.id);
      const requests = page.requests.map((request) => request.url).filter((url) => url !== page.url);
      assert.deepEqual(requests, [], `${page.id}: requests besides the page`);
    }
  } finally {
    fs.rmSync(directory, { recursive: true, force: true });
  }
});
