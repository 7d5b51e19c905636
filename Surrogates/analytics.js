// google-analytics.com/analytics.js application/javascript
// Universal Analytics: the ga() command queue, trackers and plugins; no hit is ever sent.
(function () {
  'use strict';
  const w = window;
  const name = typeof w.GoogleAnalyticsObject === 'string' && w.GoogleAnalyticsObject ? w.GoogleAnalyticsObject : 'ga';
  const previous = w[name];
  if (typeof previous === 'function' && previous.loaded === true) return;
  const queued = previous && previous.q && typeof previous.q.length === 'number'
    ? Array.prototype.slice.call(previous.q) : [];
  const trackers = [];
  const plugins = {};
  const noop = function () {};
  function later(callback) {
    setTimeout(function () { callback(); }, 0);
  }
  // Pages navigate or submit forms in hitCallback, so it runs even though nothing is sent.
  function fireHitCallback(fields) {
    const callback = fields && fields.hitCallback;
    if (typeof callback === 'function') later(callback);
  }
  function Tracker(fields) {
    this.fields = fields;
  }
  Tracker.prototype.get = function (field) {
    if (field === 'linkerParam') return '';
    return this.fields[field];
  };
  Tracker.prototype.set = function (field, value) {
    if (field && typeof field === 'object') Object.assign(this.fields, field);
    else if (typeof field === 'string') this.fields[field] = value;
  };
  Tracker.prototype.send = function () {
    const fields = Object.assign({}, this.fields);
    for (let i = 0; i < arguments.length; i += 1) {
      if (arguments[i] && typeof arguments[i] === 'object') Object.assign(fields, arguments[i]);
    }
    fireHitCallback(fields);
  };
  function trackerNamed(trackerName) {
    for (let i = 0; i < trackers.length; i += 1) {
      if (trackers[i].fields.name === trackerName) return trackers[i];
    }
    return undefined;
  }
  function create(trackingId) {
    const fields = { trackingId: trackingId, name: 't0', cookieDomain: 'auto' };
    for (let i = 1; i < arguments.length; i += 1) {
      const value = arguments[i];
      if (value && typeof value === 'object') Object.assign(fields, value);
      else if (typeof value === 'string' && i === 1) fields.cookieDomain = value;
      else if (typeof value === 'string' && i === 2) fields.name = value;
    }
    if (trackingId && typeof trackingId === 'object') Object.assign(fields, trackingId);
    const existing = trackerNamed(fields.name);
    if (existing) return existing;
    const tracker = new Tracker(fields);
    trackers.push(tracker);
    return tracker;
  }
  function run(args) {
    const command = args[0];
    if (typeof command === 'function') {
      command.call(w[name], trackers[0]);
      return;
    }
    if (typeof command !== 'string') return;
    const rest = Array.prototype.slice.call(args, 1);
    const dot = command.indexOf('.');
    const trackerName = dot > 0 ? command.slice(0, dot) : 't0';
    const method = dot > 0 ? command.slice(dot + 1) : command;
    if (method === 'create') {
      create.apply(null, rest);
    } else if (method === 'provide') {
      if (typeof rest[0] === 'string' && typeof rest[1] === 'function') plugins[rest[0]] = rest[1];
    } else if (method === 'require') {
      const tracker = trackerNamed(trackerName);
      const Plugin = plugins[rest[0]];
      if (tracker && typeof Plugin === 'function') new Plugin(tracker, rest[rest.length - 1]);
    } else if (method === 'remove') {
      const tracker = trackerNamed(trackerName);
      if (tracker) trackers.splice(trackers.indexOf(tracker), 1);
    } else if (method === 'send' || method === 'set') {
      const tracker = trackerNamed(trackerName);
      if (tracker) tracker[method].apply(tracker, rest);
      else if (method === 'send') fireHitCallback(rest[rest.length - 1]);
    }
  }
  const ga = function () {
    try {
      run(arguments);
    } catch (error) {
      setTimeout(function () { throw error; }, 0);
    }
  };
  ga.create = function () { return create.apply(null, arguments); };
  ga.getByName = function (trackerName) { return trackerNamed(trackerName) || null; };
  ga.getAll = function () { return trackers.slice(); };
  ga.remove = function (trackerName) { run([String(trackerName) + '.remove']); };
  ga.loaded = true;
  ga.answer = 42;
  ga.l = previous && previous.l ? previous.l : Date.now();
  w[name] = ga;
  if (!w.gaplugins) {
    const Linker = function () {};
    Linker.prototype.autoLink = noop;
    Linker.prototype.decorate = function (url) { return url; };
    Linker.prototype.passthrough = noop;
    w.gaplugins = { Linker: Linker };
  }
  for (let i = 0; i < queued.length; i += 1) ga.apply(null, queued[i]);
})();
