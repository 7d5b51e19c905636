// scorecardresearch.com/beacon.js application/javascript
// comScore: COMSCORE.beacon takes the measurements of _comscore and of later calls; none is sent.
(function () {
  'use strict';
  const w = window;
  if (w.COMSCORE && typeof w.COMSCORE.beacon === 'function') return;
  const noop = function () {};
  // Like the real library, the queue is emptied in place: pages keep references to the array.
  const purge = function () {
    if (Array.isArray(w._comscore)) w._comscore.length = 0;
  };
  w.COMSCORE = { beacon: noop, purge: purge };
  if (typeof w.udm_ !== 'function') w.udm_ = noop;
  purge();
})();
