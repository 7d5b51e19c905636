// amazon-adsystem.com/amzn_ads.js application/javascript
// Amazon's older display ads library (amznads): no ads, callbacks still run.
(function () {
  'use strict';
  const w = window;
  if (w.amznads && w.amznads.trackerlessReady === true) return;
  const noop = function () {};
  const amznads = { ads: {}, asyncParams: {} };
  Object.defineProperty(amznads, 'trackerlessReady', { value: true });
  ['appendScriptTag', 'doc', 'doGetAdsAsync', 'getAds', 'getAdsAsync', 'renderAd', 'saveAds', 'setTargeting',
    'setTargetingForGPTAsync', 'setTargetingForGPTSync', 'tryGetAdsAsync', 'updateAds'].forEach(function (name) {
    amznads[name] = noop;
  });
  amznads.getAdsCallback = function (id, callback) {
    if (typeof callback === 'function') setTimeout(function () { callback(); }, 0);
  };
  amznads.getTargeting = function () { return {}; };
  amznads.getKeys = function () { return []; };
  amznads.appendTargetingToAdServerUrl = function (url) { return url; };
  amznads.appendTargetingToQueryString = function (query) { return query; };
  w.amznads = amznads;
  w.amzn_ads = noop;
  w.aax_write = noop;
  w.aax_render_ad = noop;
})();
