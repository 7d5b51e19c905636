// google-analytics.com/api.js application/javascript
// Content Experiments (cxApi): every visitor sees the original page.
(function () {
  'use strict';
  const w = window;
  if (w.cxApi && typeof w.cxApi.chooseVariation === 'function') return;
  const chosen = {};
  const noop = function () {};
  w.cxApi = {
    NO_CHOSEN_VARIATION: -1,
    NOT_PARTICIPATING: -2,
    ORIGINAL_VARIATION: 0,
    chooseVariation: function () { return 0; },
    getChosenVariation: function (experimentId) {
      return Object.prototype.hasOwnProperty.call(chosen, experimentId) ? chosen[experimentId] : -1;
    },
    setChosenVariation: function (variation, experimentId) { chosen[experimentId] = variation; },
    setAllowHash: noop,
    setCookiePath: noop,
    setDomainName: noop
  };
})();
