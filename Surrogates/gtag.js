// googletagmanager.com/gtag.js application/javascript
// The Google tag (gtag.js): gtag() commands queued in dataLayer run their callbacks; nothing is sent.
(function () {
  'use strict';
  const w = window;
  const layer = Array.isArray(w.dataLayer) ? w.dataLayer : (w.dataLayer = []);
  // Loaded twice, or with the other dataLayer surrogate: the dataLayer is handled already.
  if (layer.push && layer.push.isSurrogate === true) return;
  const arrayPush = Array.prototype.push;
  function later(callback, argument) {
    setTimeout(function () { callback(argument); }, 0);
  }
  // gtag() pushes its arguments object: ('event', name, {event_callback}), ('get', target, field, callback).
  function run(command) {
    if (!command || typeof command !== 'object') return;
    if (typeof command.eventCallback === 'function') later(command.eventCallback);
    if (command[0] === 'event' && command[2] && typeof command[2].event_callback === 'function') {
      later(command[2].event_callback);
    } else if (command[0] === 'get' && typeof command[3] === 'function') {
      later(command[3], undefined);
    }
  }
  layer.push = function () {
    const length = arrayPush.apply(layer, arguments);
    for (let i = 0; i < arguments.length; i += 1) run(arguments[i]);
    return length;
  };
  layer.push.isSurrogate = true;
  for (let i = 0; i < layer.length; i += 1) run(layer[i]);
  if (layer.hide && typeof layer.hide.end === 'function') later(layer.hide.end);
})();
