// googletagmanager.com/gtm.js application/javascript
// Google Tag Manager: the dataLayer keeps working and its callbacks run; no tag ever fires.
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
  // A page passes eventCallback to navigate once its tags have fired; with no tags that is at once.
  function handle(entry) {
    if (!entry || typeof entry !== 'object') return;
    if (typeof entry.eventCallback === 'function') later(entry.eventCallback);
    // gtag() commands go through GTM containers too: ['event', name, {event_callback}].
    const parameters = entry[0] === 'event' ? entry[2] : undefined;
    if (parameters && typeof parameters.event_callback === 'function') later(parameters.event_callback);
  }
  // Pages read their container's data model through google_tag_manager['GTM-XXXX'].dataLayer.
  if (!w.google_tag_manager) {
    const containers = {};
    w.google_tag_manager = new Proxy(containers, {
      get: function (target, key) {
        if (typeof key !== 'string' || !/^(GTM|G|AW|DC|GT)-/.test(key)) return target[key];
        if (!target[key]) {
          const model = {};
          target[key] = { dataLayer: {
            get: function (name) { return model[name]; },
            set: function (name, value) { model[name] = value; },
            reset: function () { Object.keys(model).forEach(function (name) { delete model[name]; }); }
          } };
        }
        return target[key];
      }
    });
  }
  layer.push = function () {
    const length = arrayPush.apply(layer, arguments);
    for (let i = 0; i < arguments.length; i += 1) handle(arguments[i]);
    return length;
  };
  layer.push.isSurrogate = true;
  for (let i = 0; i < layer.length; i += 1) handle(layer[i]);
  // The anti-flicker snippet of Google Optimize hides the page until the container ends it.
  if (layer.hide && typeof layer.hide.end === 'function') later(layer.hide.end);
  // Pages expect the Universal Analytics tag of their container to have defined ga().
  if (typeof w.ga !== 'function') {
    w.ga = function () {
      const last = arguments[arguments.length - 1];
      if (last && typeof last.hitCallback === 'function') later(last.hitCallback);
    };
  }
})();
