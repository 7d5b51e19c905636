function (settings, captured, secret, post, options) {
  'use strict';
  // The message queue of blocking.js and inference.js (protocol v1): events wait in one queue per
  // document and script, and at most one message per batchInterval carries them to the host,
  // within the host's limits. Called once at document start, before any page script runs: every
  // key of `captured` and `options` is read now, so a page's getter on Object.prototype is never
  // asked for one later.
  //
  // options.script: the message's `script`. options.postWhileLeaving: from pagehide, or the
  // document hidden, to pageshow or visible again, each event is posted at once (blocking.js:
  // its events come from page script's own calls, the unload beacons of the page's pagehide and
  // visibilitychange handlers among them, which must reach the host before the document goes).
  // Without it (inference.js: its events come from observers the browser calls later), a hidden
  // document posts what is queued if the last message went an interval or more ago, and batching
  // goes on. options.beforeFlush(final): called before each message is made (final at pagehide).
  // options.problem(where, error): what the queue caught.
  var apply = captured.apply;
  var win = captured.window;
  var doc = captured.document || null;
  var setTimeout = captured.setTimeout;
  var clearTimeout = captured.clearTimeout || null;
  var addEventListener = captured.addEventListener || null;
  var visibilityStateGet = captured.visibilityStateGet || null;
  var performance = captured.performance || null;
  var performanceNow = captured.performanceNow || null;
  var setPrototypeOf = captured.ObjectSetPrototypeOf;
  var floor = captured.MathFloor;
  var random = captured.MathRandom;
  var charCodeAt = captured.stringCharCodeAt;
  var stringSlice = captured.stringSlice;
  var crypto = captured.crypto || null;
  var getRandomValues = captured.getRandomValues || null;
  var Uint8Array = captured.Uint8Array || null;
  var script = options.script;
  var postWhileLeaving = options.postWhileLeaving === true;
  var beforeFlush = typeof options.beforeFlush === 'function' ? options.beforeFlush : null;
  var problem = typeof options.problem === 'function' ? options.problem : null;

  function setting(name, fallback, min, max) {
    var value = settings !== null && typeof settings === 'object' ? settings[name] : undefined;
    if (typeof value !== 'number' || value !== value) { return fallback; }
    if (value < min) { return min; }
    if (value > max) { return max; }
    return floor(value);
  }

  var BATCH_INTERVAL = setting('batchInterval', 100, 10, 60000);
  var MAX_EVENTS_PER_MESSAGE = setting('maxEventsPerMessage', 200, 1, 500);
  var MAX_QUEUED_EVENTS = 2000;
  // The host refuses a URL longer than this many UTF-8 bytes.
  var MAX_URL_BYTES = 8192;
  // The host refuses a message of more than 256 KiB: the events of one message stay within this
  // estimate (3 bytes per UTF-16 unit of a URL, 100 for the rest of an event), leaving room for
  // the envelope and its two page URLs.
  var MAX_EVENT_BYTES = 200 * 1024;

  function caught(where, error) {
    if (problem === null) { return; }
    try { problem(where, error); } catch (e) { /* a broken reporter must not throw either */ }
  }

  // An array without a prototype: writing an index never reaches a setter of Array.prototype,
  // and JSON.stringify finds no toJSON (it is still an array, in JSON and for WebKit). Both
  // scripts take it from here (`messages.list`).
  function list() {
    var result = [];
    setPrototypeOf(result, null);
    return result;
  }

  // --- URLs ---------------------------------------------------------------------------------

  // The URL as the host takes it: cut to the last whole character within MAX_URL_BYTES.
  function cut(url) {
    // Three UTF-8 bytes at most per UTF-16 unit: shorter URLs need no count.
    return url.length * 3 > MAX_URL_BYTES ? cutToBytes(url, MAX_URL_BYTES) : url;
  }

  // The longest start of `s` of at most `limit` UTF-8 bytes, not splitting a surrogate pair.
  function cutToBytes(s, limit) {
    var bytes = 0;
    for (var i = 0; i < s.length; i++) {
      var unit = apply(charCodeAt, s, [i]);
      var size = unit < 0x80 ? 1 : unit < 0x800 ? 2 : 3;
      if (unit >= 0xD800 && unit <= 0xDBFF && i + 1 < s.length) {
        var next = apply(charCodeAt, s, [i + 1]);
        if (next >= 0xDC00 && next <= 0xDFFF) {
          if (bytes + 4 > limit) { return apply(stringSlice, s, [0, i]); }
          bytes += 4;
          i += 1;
          continue;
        }
      }
      if (bytes + size > limit) { return apply(stringSlice, s, [0, i]); }
      bytes += size;
    }
    return s;
  }

  // --- The page -------------------------------------------------------------------------------

  // 16 lowercase hex characters, from the browser's random source where there is one.
  function randomId() {
    var hex = '0123456789abcdef';
    var id = '';
    var bytes = null;
    try {
      if (getRandomValues !== null && Uint8Array !== null) {
        bytes = new Uint8Array(8);
        apply(getRandomValues, crypto, [bytes]);
      }
    } catch (e) {
      bytes = null;
    }
    for (var i = 0; i < 8; i++) {
      var byte = bytes !== null ? bytes[i] : floor(random() * 256);
      id += hex[(byte >> 4) & 15] + hex[byte & 15];
    }
    return id;
  }

  var isTopFrame = true;
  try {
    isTopFrame = win.top === win;
  } catch (e) {
    isTopFrame = false;
  }
  var pageId = randomId();

  // This document's URL.
  function frameURL() {
    try {
      var href = win.location.href;
      return typeof href === 'string' ? href : '';
    } catch (e) {
      return '';
    }
  }

  // The page the user sees: this document in the top frame; in a frame the top document's URL
  // when readable (same origin), else the top's origin (the last ancestor origin), else the
  // referrer.
  function topURL() {
    if (isTopFrame) { return frameURL(); }
    try {
      var top = win.top.location.href;
      if (typeof top === 'string' && top.length > 0) { return top; }
    } catch (e) { /* cross-origin top */ }
    try {
      var ancestors = win.location.ancestorOrigins;
      if (ancestors && ancestors.length > 0) {
        var origin = ancestors[ancestors.length - 1];
        if (typeof origin === 'string' && origin.length > 0) { return origin; }
      }
    } catch (e) { /* not WebKit or Chromium */ }
    try {
      var referrer = doc !== null ? doc.referrer : undefined;
      if (typeof referrer === 'string') { return referrer; }
    } catch (e) { /* no document */ }
    return '';
  }

  // --- The queue ----------------------------------------------------------------------------

  var queue = list();
  var queueHead = 0;
  var dropped = 0;
  var seq = 0;
  var timer = null;
  // A timer set before a flush that cancelled it must not post a second message right after it,
  // where clearTimeout is missing or late.
  var timerGeneration = 0;
  var lastPost = -Infinity;
  // From pagehide (or, with postWhileLeaving, the document hidden) to pageshow or visible: the
  // document may be going away, and no timer of it may run again.
  var leaving = false;
  // While beforeFlush runs: what it queues goes in the message being made.
  var flushing = false;

  // Queues an event (an object without a prototype); false when the queue is full, and the
  // event counted as dropped.
  function enqueue(event) {
    if (queue.length - queueHead >= MAX_QUEUED_EVENTS) {
      dropped += 1;
      return false;
    }
    queue[queue.length] = event;
    if (flushing) { return true; }
    if (leaving && postWhileLeaving) {
      flush(false);
    } else {
      schedule();
    }
    return true;
  }

  // An event the script left out (its own memory is full): the next message says so.
  function countDropped() {
    dropped += 1;
  }

  function schedule() {
    if (timer !== null || leaving || queue.length - queueHead === 0) { return; }
    var generation = timerGeneration;
    try {
      timer = apply(setTimeout, win, [function () { onTimer(generation); }, BATCH_INTERVAL]);
    } catch (e) {
      timer = null;
    }
  }

  function cancel() {
    timerGeneration += 1;
    if (timer === null) { return; }
    try {
      if (clearTimeout !== null) { apply(clearTimeout, win, [timer]); }
    } catch (e) { /* the generation keeps it from posting */ }
    timer = null;
  }

  function onTimer(generation) {
    if (generation !== timerGeneration) { return; }
    timer = null;
    try {
      flush(false);
    } catch (e) {
      caught('flush', e);
    }
  }

  function now() {
    try {
      return apply(performanceNow, performance, []);
    } catch (e) {
      return -Infinity;
    }
  }

  // Posts one message of what is queued: at most MAX_EVENTS_PER_MESSAGE events within
  // MAX_EVENT_BYTES; the rest waits for the next interval (while leaving, for the next event
  // posted at once or for pageshow).
  function flush(final) {
    cancel();
    if (beforeFlush !== null) {
      flushing = true;
      try {
        beforeFlush(final);
      } catch (e) {
        caught('flush', e);
      }
      flushing = false;
    }
    var available = queue.length - queueHead;
    if (available === 0) { return; }
    var count = 0;
    var bytes = 0;
    while (count < available && count < MAX_EVENTS_PER_MESSAGE) {
      var url = queue[queueHead + count].url;
      bytes += (typeof url === 'string' ? url.length * 3 : 0) + 100;
      if (count > 0 && bytes > MAX_EVENT_BYTES) { break; }
      count += 1;
    }
    var events = list();
    for (var i = 0; i < count; i++) {
      events[i] = queue[queueHead + i];
      queue[queueHead + i] = undefined;
    }
    queueHead += count;
    if (queueHead === queue.length) {
      queue = list();
      queueHead = 0;
    } else if (queueHead > MAX_QUEUED_EVENTS) {
      var rest = list();
      for (var j = queueHead; j < queue.length; j++) { rest[j - queueHead] = queue[j]; }
      queue = rest;
      queueHead = 0;
    }
    // What the script sends has no prototype: a page's setters on Object.prototype would
    // otherwise see the message as it is written, and its Object.prototype.toJSON or
    // Array.prototype.toJSON (Prototype.js defines the latter) rewrite it wherever the message is
    // written as JSON (the Android bridge, WebView2).
    var message = {
      __proto__: null,
      trackerless: 1,
      secret: secret,
      script: script,
      page: { __proto__: null, id: pageId, url: cut(topURL()), frame: cut(frameURL()), isTopFrame: isTopFrame },
      seq: seq,
      events: events
    };
    if (dropped > 0) {
      message.dropped = dropped;
      dropped = 0;
    }
    seq += 1;
    lastPost = now();
    try {
      post(message);
    } catch (e) {
      caught('post', e);
    }
    schedule();
  }

  // Posts what fits in one message now (an event the user waits for), then batches again.
  function send() {
    flush(false);
  }

  // --- Leaving ------------------------------------------------------------------------------

  function isHidden() {
    if (doc === null) { return false; }
    // Read with the getter captured at start where there is one: a page redefining
    // visibilityState cannot keep what it sends on the way out from the host.
    var state = visibilityStateGet !== null ? apply(visibilityStateGet, doc, []) : doc.visibilityState;
    return state === 'hidden';
  }

  // The document is going away: one message at once, even inside the interval; what does not
  // fit waits for a pageshow (back-forward cache) or is lost.
  function onPageHide() {
    try {
      leaving = true;
      flush(true);
    } catch (e) {
      caught('pagehide', e);
    }
  }

  function onPageShow() {
    try {
      leaving = false;
      schedule();
    } catch (e) {
      caught('pageshow', e);
    }
  }

  // A hidden page (an app sent to the background) may be suspended or killed without a pagehide.
  function onVisibilityChange() {
    try {
      if (isHidden()) {
        if (postWhileLeaving) {
          leaving = true;
          flush(false);
        } else if (timer !== null && !(now() - lastPost < BATCH_INTERVAL)) {
          // What is queued goes now, unless a message went less than an interval ago (without a
          // clock, it goes).
          flush(false);
        }
      } else if (leaving) {
        leaving = false;
        schedule();
      }
    } catch (e) {
      caught('visibilitychange', e);
    }
  }

  // Capture listeners, added before any page script's: what the page's own handlers of these
  // events queue comes after the queue knows the document is leaving.
  function listen(target, type, listener) {
    try {
      apply(addEventListener, target, [type, listener, true]);
    } catch (e) {
      caught(type, e);
    }
  }

  if (addEventListener !== null) {
    listen(win, 'pagehide', onPageHide);
    listen(win, 'pageshow', onPageShow);
    if (doc !== null) { listen(doc, 'visibilitychange', onVisibilityChange); }
  }

  return {
    __proto__: null,
    enqueue: enqueue,
    countDropped: countDropped,
    send: send,
    cut: cut,
    randomId: randomId,
    isTopFrame: isTopFrame,
    frameURL: frameURL,
    topURL: topURL,
    list: list
  };
}
