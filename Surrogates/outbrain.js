// outbrain.com/outbrain.js application/javascript
// Outbrain widgets: OBR.extern and the other Outbrain globals take every call; widgets stay empty
// and recommendation callbacks get an empty list.
(function () {
  'use strict';
  const w = window;
  if (w.OBR && w.OBR.extern && w.OB_PROXY) return;
  const noop = function () {};
  // Any method a page calls exists; 'then' and 'toJSON' stay undefined so the object is no thenable.
  function anything(methods) {
    return new Proxy(methods || {}, {
      get: function (target, key) {
        if (key in target || typeof key !== 'string' || key === 'then' || key === 'toJSON') return target[key];
        return noop;
      }
    });
  }
  function answerWithNothing() {
    const callback = Array.prototype.filter.call(arguments, function (argument) {
      return typeof argument === 'function';
    })[0];
    if (callback) setTimeout(function () { callback({ doc: [], settings: {}, request: {} }); }, 0);
  }
  w.OBR = anything({ extern: anything({ callRecs: answerWithNothing, callClicks: answerWithNothing }), ready: 1 });
  w.OBR$ = function () { return anything(); };
  w.OB_PROXY = anything();
  w.outbrain = anything({ callRecs: answerWithNothing });
  w.outbrain_rater = anything();
})();
