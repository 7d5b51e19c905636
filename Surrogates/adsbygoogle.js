// googlesyndication.com/adsbygoogle.js application/javascript
// AdSense: the adsbygoogle queue drains; every ad unit is marked unfilled, so pages that hide
// unfilled units (ins.adsbygoogle[data-ad-status="unfilled"]) do; H5 game ad breaks end at once.
(function () {
  'use strict';
  const w = window;
  const previous = w.adsbygoogle;
  if (previous && previous.loaded === true && !Array.isArray(previous)) return;
  const queued = previous && typeof previous.length === 'number' ? Array.prototype.slice.call(previous) : [];
  function later(callback, argument) {
    setTimeout(function () { callback(argument); }, 0);
  }
  function markUnfilled(element) {
    if (!element || typeof element.setAttribute !== 'function') return;
    element.setAttribute('data-adsbygoogle-status', 'done');
    element.setAttribute('data-ad-status', 'unfilled');
  }
  function nextUnit() {
    const units = w.document.querySelectorAll('ins.adsbygoogle');
    for (let i = 0; i < units.length; i += 1) {
      if (!units[i].getAttribute('data-adsbygoogle-status')) return units[i];
    }
    return null;
  }
  function handle(item) {
    if (!item || typeof item !== 'object') return;
    // adConfig({onReady}) and adBreak({type, beforeAd, afterAd, adBreakDone}) of the Ad Placement API.
    if (typeof item.onReady === 'function') later(item.onReady);
    if (typeof item.type === 'string' || typeof item.adBreakDone === 'function') {
      if (typeof item.adBreakDone === 'function') {
        const format = item.type === 'reward' ? 'reward' : 'interstitial';
        const placement = { breakType: item.type, breakName: item.name, breakFormat: format, breakStatus: 'notReady' };
        later(item.adBreakDone, placement);
      }
      return;
    }
    if (item.enable_page_level_ads || (item.google_ad_client && !item.element && !item.params)) return;
    markUnfilled(item.element || nextUnit());
  }
  const adsbygoogle = {
    loaded: true,
    push: function (item) {
      try {
        handle(item);
      } catch (error) {
        setTimeout(function () { throw error; }, 0);
      }
    }
  };
  w.adsbygoogle = adsbygoogle;
  queued.forEach(adsbygoogle.push);
})();
