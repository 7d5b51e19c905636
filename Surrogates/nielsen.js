// imrworldwide.com/nielsen.js application/javascript
// Nielsen's v60.js: nol_t(config) gives a tracker whose record() and post() measure nothing.
(function () {
  'use strict';
  const w = window;
  if (typeof w.nol_t === 'function') return;
  // Every method returns the tracker, so chains like nol_t(config).record().post() work.
  function Tracker(config) {
    const tracker = this;
    this.pvar = config || {};
    ['addData', 'do_sample', 'getData', 'in_sample', 'post', 'record', 'sendALink', 'sendALinkWithParams',
      'sendPageView', 'setData'].forEach(function (name) {
      tracker[name] = function () { return tracker; };
    });
  }
  w.nol_t = function (config) { return new Tracker(config); };
})();
