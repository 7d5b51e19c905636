'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { createPage, assertQuiet } = require('./page.js');

test('fb-sdk.js: fbAsyncInit, FB.init, login status, login, api, XFBML and events', async () => {
  const calls = [];
  const page = createPage({ globals: { record: (value) => { calls.push(value); } } });
  page.run(`
    window.fbAsyncInit = function () {
      FB.init({ appId: '1234', autoLogAppEvents: true, xfbml: true, version: 'v19.0' });
      FB.AppEvents.logPageView();
      FB.getLoginStatus(function (response) { record('status ' + response.status + ' ' + response.authResponse); });
      record('init');
    };
    window.FB = undefined;
  `);
  page.load('fb-sdk.js');
  page.run(`
    FB.Event.subscribe('xfbml.render', function () { record('rendered'); });
    FB.Event.subscribe('auth.statusChange', function () { record('never'); });
    FB.login(function (response) { record('login ' + response.status); }, { scope: 'public_profile,email' });
    FB.api('/me', { fields: 'name' }, function (response) { record('api ' + (response.error ? 'error' : 'data')); });
    FB.api('/me');
    FB.ui({ method: 'share', href: 'https://example.org/' }, function (response) { record('ui ' + response); });
    FB.XFBML.parse(document.body, function () { record('parsed'); });
    record('user ' + FB.getUserID() + ' token ' + FB.getAccessToken());
    FB.Canvas.setAutoGrow();
  `);
  await page.settle();
  assert.deepEqual(calls, ['user  token null', 'init', 'login unknown', 'api error', 'ui undefined', 'parsed',
    'rendered', 'rendered', 'status unknown null']);
  assert.equal(page.run('fbAsyncInit.hasRun'), true);
  page.load('fb-sdk.js');
  await page.settle();
  assert.equal(calls.filter((call) => call === 'init').length, 1, 'fbAsyncInit runs once');
  assertQuiet(assert, page);
});

test('fbevents.js: the pixel snippet, init and track before and after load', () => {
  const page = createPage();
  page.run(`
    !function (f, b, e, v, n, t, s) {
      if (f.fbq) return;
      n = f.fbq = function () { n.callMethod ? n.callMethod.apply(n, arguments) : n.queue.push(arguments); };
      if (!f._fbq) f._fbq = n;
      n.push = n; n.loaded = !0; n.version = '2.0'; n.queue = [];
    }(window, document, 'script', 'https://connect.facebook.net/en_US/fbevents.js');
    fbq('init', '123456789');
    fbq('track', 'PageView');
  `);
  page.load('fbevents.js');
  page.run(`
    fbq('track', 'Purchase', { value: 1, currency: 'EUR' }, { eventID: 'x' });
    fbq('trackCustom', 'Shared');
    fbq('init', '987654321');
    fbq('consent', 'revoke');
    fbq();
    _fbq.push('track', 'Lead');
  `);
  assert.equal(page.run('fbq.queue.length'), 0);
  assert.equal(page.run('fbq.getState().pixels.map(function (p) { return p.id; }).join()'), '123456789,987654321');
  page.load('fbevents.js');
  assert.equal(page.run('fbq === _fbq'), true);
  assertQuiet(assert, page);
});

test('fbevents.js: loaded with no snippet before it', () => {
  const page = createPage();
  page.load('fbevents.js');
  page.run("fbq('init', '1'); fbq('track', 'PageView');");
  assert.deepEqual(page.newGlobals(), ['_fbq', 'fbq']);
  assertQuiet(assert, page);
});

test('beacon.js: the comScore tag with _comscore and COMSCORE.beacon', () => {
  const page = createPage();
  page.run(`
    var _comscore = _comscore || [];
    _comscore.push({ c1: '2', c2: '1234567', options: { enableFirstPartyCookie: true } });
    var kept = _comscore;
  `);
  page.load('beacon.js');
  page.run("COMSCORE.beacon({ c1: '2', c2: '1234567' }); COMSCORE.purge(); udm_('https://b.scorecardresearch.com/b?c1=2');");
  assert.equal(page.run('kept === _comscore && _comscore.length'), 0);
  page.load('beacon.js');
  assertQuiet(assert, page);
});

test('chartbeat.js: the Chartbeat configuration, virtualPage and headline testing', () => {
  const page = createPage();
  page.run(`
    var _sf_async_config = window._sf_async_config = (window._sf_async_config || {});
    _sf_async_config.uid = 12345;
    _sf_async_config.domain = 'example.com';
    var _cbq = window._cbq = (window._cbq || []);
    _cbq.push(['_acct', 'anon']);
  `);
  page.load('chartbeat.js');
  page.run(`
    pSUPERFLY.virtualPage({ sections: 'news', authors: 'a', path: '/next', title: 'Next' });
    pSUPERFLY.activity();
    pSUPERFLY_mab.anything('x');
  `);
  assert.equal(page.run('_cbq.length'), 0);
  assert.equal(page.run('pSUPERFLY.then'), undefined, 'not a thenable');
  assert.equal(page.run('JSON.stringify({ a: pSUPERFLY })'), '{"a":{}}');
  page.load('chartbeat.js');
  assertQuiet(assert, page);
});

test('nielsen.js: nol_t(config).record().post()', () => {
  const page = createPage();
  page.load('nielsen.js');
  page.run(`
    var pvar = { cid: 'us-200330', content: '0', server: 'secure-us' };
    var trac = nol_t(pvar);
    trac.record().post();
    nol_t().record().post().do_sample();
  `);
  assert.equal(page.run('trac.pvar.cid'), 'us-200330');
  page.load('nielsen.js');
  assertQuiet(assert, page);
});

test('outbrain.js: widgets, OBR.extern calls and the JSON API', async () => {
  const calls = [];
  const page = createPage({ globals: { record: (value) => { calls.push(value); } } });
  page.addElement('div', { class: 'OUTBRAIN', 'data-src': 'https://www.example.com/article', 'data-widget-id': 'AR_1' });
  page.load('outbrain.js');
  page.run(`
    OBR.extern.researchWidget();
    OBR.extern.refreshWidget('AR_1');
    OBR.extern.callRecs({ permalink: location.href, widgetId: 'JS_1' }, function (json) { record('recs ' + json.doc.length); });
    outbrain_rater.rate();
    OB_PROXY.something();
    OBR$('div').whatever();
  `);
  await page.settle();
  assert.deepEqual(calls, ['recs 0']);
  page.load('outbrain.js');
  assert.deepEqual(page.newGlobals(), ['OBR', 'OBR$', 'OB_PROXY', 'outbrain', 'outbrain_rater']);
  assertQuiet(assert, page);
});

test('quant.js: the Quantcast tag, _qevents before and after load', () => {
  const page = createPage();
  page.run(`
    var _qevents = _qevents || [];
    _qevents.push({ qacct: 'p-test123' });
    var kept = _qevents;
  `);
  page.load('quant.js');
  assert.equal(page.run('kept === _qevents && _qevents.length'), 0);
  page.run("_qevents.push({ qacct: 'p-test123', labels: 'next page' }); quantserve();");
  assert.equal(page.run('_qevents.length'), 0);
  page.load('quant.js');
  assertQuiet(assert, page);
});

test('youtube-iframe-api.js: onYouTubeIframeAPIReady, YT.Player and onReady', async () => {
  const calls = [];
  const page = createPage({ globals: { record: (value) => { calls.push(value); } } });
  const element = page.addElement('div', { id: 'player' });
  page.run(`
    var player;
    function onYouTubeIframeAPIReady() {
      record('api ready');
      player = new YT.Player('player', {
        height: '390', width: '640', videoId: 'M7lc1UVf-VE',
        playerVars: { playsinline: 1 },
        events: {
          onReady: function (event) { record('ready'); event.target.playVideo(); },
          onStateChange: function (event) { if (event.data === YT.PlayerState.PLAYING) record('playing'); }
        }
      });
    }
  `);
  page.load('youtube-iframe-api.js');
  await page.settle();
  assert.deepEqual(calls, ['api ready', 'ready']);
  assert.equal(page.run('player.getPlayerState()'), -1);
  assert.equal(page.run('player.getVideoUrl()'), 'https://www.youtube.com/watch?v=M7lc1UVf-VE');
  assert.equal(page.run('YT.get("player") === player'), true);
  assert.equal(page.run('player.getIframe()'), element);
  page.run("player.mute(); player.seekTo(10, true); player.loadVideoById({ videoId: 'abc' }); player.setSize(1, 2).destroy();");
  assert.equal(page.run('player.isMuted() && player.getVideoData().video_id'), 'abc');
  page.run("YT.ready(function () { record('YT.ready'); }); new YT.Player(document.createElement('div'));");
  page.network.length = 0;
  page.load('youtube-iframe-api.js');
  await page.settle();
  assert.deepEqual(calls.slice(2), ['YT.ready'], 'loading twice calls nothing again');
  assertQuiet(assert, page);
});

test('noop.js: runs and defines nothing', () => {
  const page = createPage();
  page.load('noop.js');
  assert.deepEqual(page.newGlobals(), []);
  assertQuiet(assert, page);
});
