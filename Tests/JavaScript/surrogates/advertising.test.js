'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { createPage, assertQuiet } = require('./page.js');

test('gpt.js: cmd functions before and after load, slots, services, display and refresh', async () => {
  const calls = [];
  const page = createPage({ globals: { record: (value) => { calls.push(value); } } });
  page.addElement('div', { id: 'div-gpt-ad-1' });
  page.addElement('div', { id: 'div-gpt-ad-2' });
  page.run(`
    window.googletag = window.googletag || { cmd: [] };
    googletag.cmd.push(function () {
      var mapping = googletag.sizeMapping().addSize([1024, 768], [970, 250]).addSize([0, 0], [300, 250]).build();
      googletag.defineSlot('/6355419/Travel/Europe', [[300, 250], [728, 90]], 'div-gpt-ad-1')
        .defineSizeMapping(mapping)
        .setTargeting('test', 'refresh')
        .addService(googletag.pubads());
      googletag.defineOutOfPageSlot('/6355419/Travel', googletag.enums.OutOfPageFormat.INTERSTITIAL);
      googletag.pubads().enableSingleRequest();
      googletag.pubads().collapseEmptyDivs();
      googletag.pubads().setTargeting('interests', ['sports', 'music']);
      googletag.pubads().addEventListener('slotRenderEnded', function (event) {
        record('rendered ' + event.slot.getSlotElementId() + ' empty ' + event.isEmpty);
      });
      googletag.enableServices();
      record('before load');
    });
  `);
  page.load('gpt.js');
  page.run(`
    googletag.cmd.push(function () {
      googletag.display('div-gpt-ad-1');
      record('after load');
    });
    googletag.cmd.push(function () { throw new Error('page bug'); }, function () { record('still runs'); });
    var slot = googletag.defineSlot('/1/x', [300, 250], 'div-gpt-ad-2').addService(googletag.pubads());
    googletag.pubads().refresh([slot]);
    record(slot.getTargeting('none').length + ' ' + slot.getAdUnitPath() + ' ' + googletag.pubads().getSlots().length);
    googletag.destroySlots([slot]);
  `);
  assert.deepEqual(calls, ['before load', 'after load', 'still runs', '0 /1/x 3'], 'cmd functions run synchronously once loaded');
  await page.settle();
  assert.deepEqual(calls.slice(4), ['rendered div-gpt-ad-1 empty true']);
  assert.equal(page.window.document.getElementById('div-gpt-ad-1').style.display, 'none', 'collapseEmptyDivs collapses');
  assert.deepEqual(page.uncaught.map((error) => error.message), ['page bug']);
  page.uncaught.length = 0;
  assert.equal(page.run('googletag.apiReady && googletag.pubadsReady'), true);
  page.load('gpt.js');
  assert.equal(page.run('googletag.pubads().getSlots().length'), 2, 'loading twice keeps the slots');
  assertQuiet(assert, page);
});

test('adsbygoogle.js: ad units are marked unfilled, page-level ads and the Ad Placement API', async () => {
  const calls = [];
  const page = createPage({ globals: { record: (value) => { calls.push(value); } } });
  const first = page.addElement('ins', { class: 'adsbygoogle', 'data-ad-client': 'ca-pub-1', 'data-ad-slot': '1' });
  const second = page.addElement('ins', { class: 'adsbygoogle', 'data-ad-client': 'ca-pub-1', 'data-ad-slot': '2' });
  page.run(`
    (adsbygoogle = window.adsbygoogle || []).push({});
    (adsbygoogle = window.adsbygoogle || []).push({ google_ad_client: 'ca-pub-1', enable_page_level_ads: true });
    window.adBreak = window.adConfig = function (o) { adsbygoogle.push(o); };
    adConfig({ preloadAdBreaks: 'on', onReady: function () { record('ready'); } });
  `);
  page.load('adsbygoogle.js');
  page.run(`
    (adsbygoogle = window.adsbygoogle || []).push({});
    (adsbygoogle = window.adsbygoogle || []).push({});
    adBreak({ type: 'start', name: 'game_started', beforeAd: function () { record('before'); },
      adBreakDone: function (info) { record('done ' + info.breakStatus); } });
    adsbygoogle.push(undefined);
    adsbygoogle.push('text');
  `);
  assert.equal(first.getAttribute('data-ad-status'), 'unfilled');
  assert.equal(second.getAttribute('data-ad-status'), 'unfilled');
  assert.equal(first.getAttribute('data-adsbygoogle-status'), 'done');
  await page.settle();
  assert.deepEqual(calls, ['ready', 'done notReady']);
  assert.equal(page.run('adsbygoogle.loaded'), true);
  page.load('adsbygoogle.js');
  assert.equal(page.run('adsbygoogle.loaded'), true);
  assertQuiet(assert, page);
});

test('ad_status.js: says ads can load', () => {
  const page = createPage();
  page.load('ad_status.js');
  assert.equal(page.window.google_ad_status, 1);
  assertQuiet(assert, page);
});

test('google-ima.js: a player set-up gets an AdErrorEvent and plays its content', async () => {
  const calls = [];
  const page = createPage({ globals: { record: (value) => { calls.push(value); } } });
  page.addElement('div', { id: 'adContainer' });
  page.addElement('video', { id: 'content' });
  page.load('google-ima.js');
  page.run(`
    var video = document.getElementById('content');
    google.ima.settings.setVpaidMode(google.ima.ImaSdkSettings.VpaidMode.ENABLED);
    google.ima.settings.setLocale('de');
    google.ima.settings.setDisableFlashAds(true);
    var adDisplayContainer = new google.ima.AdDisplayContainer(document.getElementById('adContainer'), video);
    var adsLoader = new google.ima.AdsLoader(adDisplayContainer);
    adsLoader.getSettings().setPlayerType('test');
    adsLoader.addEventListener(google.ima.AdsManagerLoadedEvent.Type.ADS_MANAGER_LOADED, function (event) {
      var adsManager = event.getAdsManager(video, new google.ima.AdsRenderingSettings());
      adsManager.init(640, 360, google.ima.ViewMode.NORMAL);
      adsManager.start();
      record('ads manager');
    }, false);
    adsLoader.addEventListener(google.ima.AdErrorEvent.Type.AD_ERROR, function (event) {
      var error = event.getError();
      record('error ' + error.getErrorCode() + ' ' + error.getType() + ' ' + event.getUserRequestContext().id);
      record('play content');
    }, false);
    var adsRequest = new google.ima.AdsRequest();
    adsRequest.adTagUrl = 'https://pubads.g.doubleclick.net/gampad/ads?iu=/1/x';
    adsRequest.linearAdSlotWidth = 640;
    adsRequest.setAdWillAutoPlay(true);
    adDisplayContainer.initialize();
    adsLoader.requestAds(adsRequest, { id: 7 });
  `);
  assert.deepEqual(calls, []);
  await page.settle();
  assert.deepEqual(calls, ['error 1009 adLoadError 7', 'play content']);
  assert.equal(page.run('google.ima.settings.getLocale()'), 'de');
  page.run(`
    var manager = new google.ima.AdsManagerLoadedEvent().getAdsManager(video);
    manager.init(1, 1, 'normal'); manager.start(); manager.resize(2, 2, 'normal'); manager.destroy();
    adsLoader.contentComplete(); adsLoader.destroy();
  `);
  page.load('google-ima.js');
  assertQuiet(assert, page);
});

test('amzn_apstag.js: the TAM snippet, init and fetchBids with the GPT refresh in the callback', async () => {
  const calls = [];
  const page = createPage({ globals: { record: (value) => { calls.push(value); } } });
  page.run(`
    !function (a9, a) {
      if (a[a9]) return;
      function q(c, r) { a[a9]._Q.push([c, r]); }
      a[a9] = { init: function () { q('i', arguments); }, fetchBids: function () { q('f', arguments); },
        setDisplayBids: function () {}, targetingKeys: function () { return []; }, _Q: [] };
    }('apstag', window);
    apstag.init({ pubID: '1234', adServer: 'googletag' });
    apstag.fetchBids({ slots: [{ slotID: 'div-1', slotName: '/1/x', sizes: [[300, 250]] }], timeout: 2e3 },
      function (bids) { record('queued ' + bids.length); apstag.setDisplayBids(); });
  `);
  page.load('amzn_apstag.js');
  page.run(`
    apstag.fetchBids({ slots: [] }, function (bids) { record('late ' + Array.isArray(bids) + ' ' + bids.length); });
    apstag.fetchBids();
    apstag.targetingKeys().forEach(function () {});
  `);
  await page.settle();
  assert.deepEqual(calls, ['queued 0', 'late true 0']);
  page.load('amzn_apstag.js');
  assert.equal(page.run('apstag._Q.length'), 0);
  assertQuiet(assert, page);
});

test('amzn_ads.js: amznads calls and the getAdsCallback callback', async () => {
  const calls = [];
  const page = createPage({ globals: { record: (value) => { calls.push(value); } } });
  page.load('amzn_ads.js');
  page.run(`
    amznads.getAdsCallback('3006', function () {
      amznads.setTargetingForGPTAsync('amznslots');
      record('targeting ' + JSON.stringify(amznads.getTargeting()));
    }, 2000);
    amznads.getAds('3006');
    aax_write(); aax_render_ad(); amzn_ads();
    record(amznads.appendTargetingToAdServerUrl('https://ads.example/?a=1'));
  `);
  await page.settle();
  assert.deepEqual(calls, ['https://ads.example/?a=1', 'targeting {}']);
  assertQuiet(assert, page);
});

test('criteo.js: Criteo.events, RequestBids and the DFP targeting', async () => {
  const calls = [];
  const page = createPage({ globals: { record: (value) => { calls.push(value); } } });
  page.run(`
    window.Criteo = window.Criteo || {};
    window.Criteo.events = window.Criteo.events || [];
    Criteo.events.push(function () {
      Criteo.SetLineItemRanges('0..4.5:0.01;4.50..27:0.05');
      Criteo.RequestBids([{ placements: [{ slotid: 'div-1', zoneid: 1, adunit: '/1/x', sizes: [[300, 250]] }] }],
        function () { Criteo.SetDFPKeyValueTargeting(); record('bids'); }, 2000);
    });
  `);
  page.load('criteo.js');
  page.run(`
    Criteo.events.push(function () {
      Criteo.DisplayAd({ zoneid: 1, containerid: 'x' });
      record('after ' + Criteo.GetBidsForAdUnit('/1/x').length);
    });
  `);
  await page.settle();
  assert.deepEqual(calls, ['after 0', 'bids']);
  page.load('criteo.js');
  assertQuiet(assert, page);
});
