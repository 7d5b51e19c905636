// chartbeat.com/chartbeat.js application/javascript
// Chartbeat: pSUPERFLY (virtualPage, activity and the rest) and the headline-testing
// pSUPERFLY_mab answer every call and measure nothing; the _cbq queue drains.
(function () {
  'use strict';
  const w = window;
  if (w.pSUPERFLY && w.pSUPERFLY_mab) return;
  const noop = function () {};
  // Any method a page calls exists; 'then' and 'toJSON' stay undefined so the object is no thenable.
  function anything() {
    return new Proxy({}, {
      get: function (target, key) {
        if (key in target || typeof key !== 'string' || key === 'then' || key === 'toJSON') return target[key];
        return noop;
      }
    });
  }
  w.pSUPERFLY = anything();
  w.pSUPERFLY_mab = anything();
  if (Array.isArray(w._cbq)) w._cbq.length = 0;
})();
