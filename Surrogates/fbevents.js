// facebook.net/fbevents.js application/javascript
// The Meta (Facebook) pixel: fbq() takes every command and sends none.
(function () {
  'use strict';
  const w = window;
  let fbq = w.fbq;
  if (typeof fbq === 'function' && fbq.trackerlessReady === true) return;
  const pixels = [];
  // The pixel snippet's fbq forwards to callMethod once the library has set it.
  const callMethod = function (command, id) {
    if (command === 'init' && typeof id === 'string' && pixels.indexOf(id) < 0) pixels.push(id);
  };
  if (typeof fbq !== 'function') {
    fbq = function () { fbq.callMethod.apply(fbq, arguments); };
    fbq.push = fbq;
    fbq.version = '2.0';
    w.fbq = fbq;
  }
  if (!w._fbq) w._fbq = fbq;
  const queued = fbq.queue && typeof fbq.queue.length === 'number' ? Array.prototype.slice.call(fbq.queue) : [];
  fbq.callMethod = callMethod;
  fbq.queue = [];
  fbq.loaded = true;
  fbq.getState = function () { return { pixels: pixels.map(function (id) { return { id: id }; }) }; };
  Object.defineProperty(fbq, 'trackerlessReady', { value: true });
  queued.forEach(function (args) { callMethod.apply(fbq, Array.prototype.slice.call(args || [])); });
})();
