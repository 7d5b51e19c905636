// quantserve.com/quant.js application/javascript
// Quantcast Measure: the _qevents queue drains and quantserve() measures nothing.
(function () {
  'use strict';
  const w = window;
  if (typeof w.quantserve === 'function' && w.__qc) return;
  // The queue is emptied in place: the tag's snippet keeps using the same array, and pages call
  // quantserve() after pushing to it (single-page sites, for each virtual page).
  const quantserve = function () {
    if (Array.isArray(w._qevents)) w._qevents.length = 0;
  };
  w.__qc = { qpixelsent: [] };
  w.quantserve = quantserve;
  quantserve();
})();
