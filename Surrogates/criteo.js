// criteo.net/criteo.js application/javascript
// Criteo publisher tag: Criteo.events drains, bid requests answer with no bids, no ad renders.
(function () {
  'use strict';
  const w = window;
  const criteo = w.Criteo && typeof w.Criteo === 'object' ? w.Criteo : (w.Criteo = {});
  if (typeof criteo.RequestBids === 'function' && criteo.events && !Array.isArray(criteo.events)) return;
  const queued = Array.isArray(criteo.events) ? criteo.events.slice() : [];
  const noop = function () {};
  function run(command) {
    try {
      if (typeof command === 'function') command();
    } catch (error) {
      setTimeout(function () { throw error; }, 0);
    }
  }
  ['DisplayAcceptableAdIfAdblocked', 'DisplayAd', 'Passback', 'RenderAd', 'SetCCPAExplicitOptOut', 'SetCeh',
    'SetDFPKeyValueTargeting', 'SetGDPRConsent', 'SetLineItemRanges', 'SetPublisherExt', 'SetSlotsExt',
    'SetTargeting', 'SetUserExt', 'SetUSPString', 'SetSyncOptions'].forEach(function (name) { criteo[name] = noop; });
  // Pages call the ad server from the RequestBids callback, so it always runs, with no bids.
  criteo.RequestBids = function (adUnits, callback) {
    if (typeof callback === 'function') setTimeout(function () { callback([]); }, 0);
  };
  criteo.GetBidsForAdUnit = function () { return []; };
  criteo.ComputeStandaloneDFPTargeting = function () { return {}; };
  criteo.events = { push: function () { Array.prototype.forEach.call(arguments, run); } };
  queued.forEach(run);
})();
