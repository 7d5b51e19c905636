// amazon-adsystem.com/amzn_apstag.js application/javascript
// Amazon Transparent Ad Marketplace (apstag): bids are fetched as none, so ad servers go on without.
(function () {
  'use strict';
  const w = window;
  const apstag = w.apstag && typeof w.apstag === 'object' ? w.apstag : (w.apstag = {});
  if (apstag.trackerlessReady === true) return;
  const queued = Array.isArray(apstag._Q) ? apstag._Q.slice() : [];
  const noop = function () {};
  // Pages refresh their GPT slots in the fetchBids callback, so it always runs, with no bids.
  apstag.fetchBids = function (config, callback) {
    if (typeof callback === 'function') setTimeout(function () { callback([]); }, 0);
  };
  apstag.init = noop;
  apstag.setDisplayBids = noop;
  apstag.targetingKeys = function () { return []; };
  apstag.renderImp = noop;
  apstag.punt = noop;
  apstag.debug = noop;
  apstag.rpa = function (tokenConfig, callback) { if (typeof callback === 'function') setTimeout(callback, 0); };
  apstag.upa = apstag.rpa;
  apstag.dpa = apstag.rpa;
  apstag.thirdPartyData = {};
  apstag._Q = [];
  Object.defineProperty(apstag, 'trackerlessReady', { value: true });
  queued.forEach(function (entry) {
    const method = entry && { i: 'init', f: 'fetchBids' }[entry[0]];
    if (method) apstag[method].apply(apstag, Array.prototype.slice.call(entry[1] || []));
  });
})();
