(function () {
  'use strict';
  // Reports to the host what this document loads: resource timing entries, load and error events
  // of elements, elements added with a URL, and same-document navigations. It runs in an
  // isolated world on WebKit, where patching fetch or XMLHttpRequest would patch only this
  // world's copies, so it watches the shared DOM and the performance timeline instead.
  // Everything it calls after start-up was captured before any page script ran.
  var captured, settings, secret, post, messages;
  // The getter of a DOM attribute (`Element.prototype.tagName`), taken from its descriptor so
  // that a page redefining the attribute later is never asked; null where the engine has none.
  function getterOf(type, name) {
    var descriptor = type && type.prototype ? Object.getOwnPropertyDescriptor(type.prototype, name) : undefined;
    return descriptor !== undefined && typeof descriptor.get === 'function' ? descriptor.get : null;
  }
  try {
    var w = window;
    var crypto = w.crypto || null;
    var media = w.HTMLMediaElement || null;
    captured = {
      window: w,
      apply: Reflect.apply,
      JSONstringify: JSON.stringify,
      document: w.document,
      ObjectKeys: Object.keys,
      ObjectCreate: Object.create,
      ObjectDefineProperty: Object.defineProperty,
      ObjectSetPrototypeOf: Object.setPrototypeOf,
      setTimeout: w.setTimeout,
      clearTimeout: w.clearTimeout,
      addEventListener: w.EventTarget ? w.EventTarget.prototype.addEventListener : null,
      getAttribute: w.Element ? w.Element.prototype.getAttribute : null,
      tagName: getterOf(w.Element, 'tagName'),
      parentNode: getterOf(w.Node, 'parentNode'),
      mediaCurrentSrc: getterOf(media, 'currentSrc'),
      mediaCanPlayType: media && typeof media.prototype.canPlayType === 'function' ? media.prototype.canPlayType : null,
      sourceSrc: getterOf(w.HTMLSourceElement, 'src'),
      querySelectorAll: w.Document ? w.Document.prototype.querySelectorAll : null,
      stringSlice: String.prototype.slice,
      stringIndexOf: String.prototype.indexOf,
      stringToLowerCase: String.prototype.toLowerCase,
      stringCharCodeAt: String.prototype.charCodeAt,
      MathRandom: Math.random,
      MathFloor: Math.floor,
      performance: w.performance || null,
      performanceNow: w.performance && typeof w.performance.now === 'function' ? w.performance.now : null,
      crypto: crypto,
      getRandomValues: crypto && typeof crypto.getRandomValues === 'function' ? crypto.getRandomValues : null,
      Uint8Array: w.Uint8Array || null,
      PerformanceObserver: w.PerformanceObserver || null,
      visibilityStateGet: getterOf(w.Document, 'visibilityState'),
      console: w.console || null,
      consoleWarn: w.console && typeof w.console.warn === 'function' ? w.console.warn : null
    };
    settings = $SETTINGS$;
    secret = $SECRET$;
    post = ($BRIDGE$)(settings, captured);
    messages = ($MESSAGE_QUEUE$)(settings, captured, secret, post, {
      __proto__: null, script: 'inference', postWhileLeaving: false, beforeFlush: beforeFlush, problem: problem
    });
  } catch (e) {
    return;
  }

  var apply = captured.apply;
  var win = captured.window;
  var doc = captured.document;
  var debug = settings !== null && typeof settings === 'object' && settings.debug === true;

  // With settings.debug, what the script caught goes to the console; never to the page otherwise.
  function problem(where, error) {
    if (!debug || captured.consoleWarn === null) { return; }
    try {
      apply(captured.consoleWarn, captured.console, ['[trackerless inference] ' + where + ':', error]);
    } catch (e) {}
  }

  // Keys kept for deduplication per document; past this a page with endless distinct URLs gets
  // its new requests counted as dropped instead of growing this script's memory.
  var MAX_KNOWN_REQUESTS = 20000;

  // An array without a prototype (the message queue's): writing an index never reaches a setter
  // of Array.prototype, and JSON.stringify finds no toJSON.
  var list = messages.list;

  // A lookup table without a prototype: no key of Object.prototype is found in it.
  function table(entries) {
    var result = captured.ObjectCreate(null);
    var keys = captured.ObjectKeys(entries);
    for (var i = 0; i < keys.length; i++) { result[keys[i]] = entries[keys[i]]; }
    return result;
  }

  // --- Strings, without the page-replaceable String.prototype -------------------------------

  function slice(s, start, end) { return apply(captured.stringSlice, s, [start, end]); }
  function indexOf(s, part) { return apply(captured.stringIndexOf, s, [part]); }
  function lower(s) { return apply(captured.stringToLowerCase, s, []); }

  function startsWith(s, prefix) {
    if (s.length < prefix.length) { return false; }
    for (var i = 0; i < prefix.length; i++) {
      if (s[i] !== prefix[i]) { return false; }
    }
    return true;
  }

  // The URL as reported, or null for URLs the host cannot classify (data:, blob:, about:, …).
  function reportableURL(url) {
    if (typeof url !== 'string' || url.length === 0) { return null; }
    var head = lower(slice(url, 0, 8));
    if (!(startsWith(head, 'http://') || startsWith(head, 'https://') ||
          startsWith(head, 'ws://') || startsWith(head, 'wss://'))) {
      return null;
    }
    return messages.cut(url);
  }

  // The lowercase extension of the URL's path ("css", "woff2"), or "".
  function extension(url) {
    var end = url.length;
    var query = indexOf(url, '?');
    if (query >= 0) { end = query; }
    var fragment = indexOf(url, '#');
    if (fragment >= 0 && fragment < end) { end = fragment; }
    for (var i = end - 1; i >= 0; i--) {
      var c = url[i];
      if (c === '.') { return lower(slice(url, i + 1, end)); }
      if (c === '/') { return ''; }
    }
    return '';
  }

  var FONT_EXTENSIONS = table({ woff: true, woff2: true, ttf: true, otf: true, eot: true });

  function typeFromExtension(url) {
    var ext = extension(url);
    if (ext === 'css') { return 'stylesheet'; }
    if (ext === 'js' || ext === 'mjs') { return 'script'; }
    if (FONT_EXTENSIONS[ext] === true) { return 'font'; }
    return null;
  }

  // --- Types --------------------------------------------------------------------------------

  var INITIATOR_TYPES = table({
    script: 'script',
    img: 'image',
    image: 'image',
    input: 'image',
    iframe: 'subdocument',
    frame: 'subdocument',
    subdocument: 'subdocument',
    xmlhttprequest: 'xmlhttprequest',
    fetch: 'xmlhttprequest',
    beacon: 'ping',
    ping: 'ping',
    video: 'media',
    audio: 'media',
    track: 'media',
    embed: 'object',
    object: 'object'
  });

  // Types learnt from elements, by URL: a resource timing entry says only `link` or `other`
  // where the element says what the resource is.
  var elementTypes = captured.ObjectCreate(null);
  var linksScanned = false;

  function typeOfEntry(initiatorType, url) {
    var known = INITIATOR_TYPES[initiatorType];
    if (typeof known === 'string') { return known; }
    var fromElement = elementTypes[url];
    if (fromElement === undefined && initiatorType === 'link' && !linksScanned) {
      // Its load event may come after the entry: ask the document's links (few) once per batch
      // of entries.
      linksScanned = true;
      forEachElement('link[href]', learnType);
      fromElement = elementTypes[url];
    }
    if (typeof fromElement === 'string') { return fromElement; }
    if (initiatorType === 'css') {
      return FONT_EXTENSIONS[extension(url)] === true ? 'font' : 'image';
    }
    return typeFromExtension(url) || 'other';
  }

  function attribute(element, name) {
    try {
      var value = apply(captured.getAttribute, element, [name]);
      return typeof value === 'string' ? value : '';
    } catch (e) {
      return '';
    }
  }

  // --- Elements, through the DOM's own getters ------------------------------------------------

  // An attribute read through the getter captured at start; the property itself only where the
  // engine had no getter to capture.
  function read(getter, object, name) {
    return getter !== null ? apply(getter, object, []) : object[name];
  }

  // The lowercased tag name of an element; '' for anything else (a document, the window).
  function tagOf(node) {
    var tag;
    try {
      tag = read(captured.tagName, node, 'tagName');
    } catch (e) {
      return '';
    }
    return typeof tag === 'string' ? lower(tag) : '';
  }

  function parentOf(node) {
    try {
      return read(captured.parentNode, node, 'parentNode');
    } catch (e) {
      return null;
    }
  }

  function hasToken(list, token) {
    var words = lower(list);
    var start = 0;
    for (var i = 0; i <= words.length; i++) {
      var c = words[i];
      if (i === words.length || c === ' ' || c === '\t' || c === '\n' || c === '\f' || c === '\r') {
        if (i - start === token.length && slice(words, start, i) === token) { return true; }
        start = i + 1;
      }
    }
    return false;
  }

  var PRELOAD_TYPES = table({
    script: 'script',
    style: 'stylesheet',
    font: 'font',
    image: 'image',
    fetch: 'xmlhttprequest',
    document: 'subdocument',
    audio: 'media',
    video: 'media',
    track: 'media'
  });

  // [type, URL] of an element that loads something, or null.
  function elementRequest(element) {
    var tag = tagOf(element);
    var type = null;
    var url = null;
    if (tag === 'script') {
      type = 'script';
      url = element.src;
    } else if (tag === 'img') {
      type = 'image';
      url = element.currentSrc || element.src;
    } else if (tag === 'iframe' || tag === 'frame') {
      type = 'subdocument';
      url = element.src;
    } else if (tag === 'video' || tag === 'audio') {
      type = 'media';
      url = read(captured.mediaCurrentSrc, element, 'currentSrc') || element.src;
    } else if (tag === 'track') {
      type = 'media';
      url = element.src;
    } else if (tag === 'source') {
      if (tagOf(parentOf(element)) === 'picture') { return null; }
      type = 'media';
      url = read(captured.sourceSrc, element, 'src');
    } else if (tag === 'embed') {
      type = 'object';
      url = element.src;
    } else if (tag === 'object') {
      type = 'object';
      url = element.data;
    } else if (tag === 'input') {
      if (lower(attribute(element, 'type')) !== 'image') { return null; }
      type = 'image';
      url = element.src;
    } else if (tag === 'link') {
      var rel = attribute(element, 'rel');
      if (hasToken(rel, 'stylesheet')) {
        type = 'stylesheet';
      } else if (hasToken(rel, 'modulepreload')) {
        type = 'script';
      } else if (hasToken(rel, 'preload') || hasToken(rel, 'prefetch')) {
        type = PRELOAD_TYPES[lower(attribute(element, 'as'))] || 'other';
      } else {
        return null;
      }
      url = element.href;
    } else {
      return null;
    }
    url = reportableURL(url);
    if (url === null) { return null; }
    return [type, url];
  }

  // --- Requests and navigations, queued (JSTemplates/parts/message-queue.js) ------------------

  var isTopFrame = messages.isTopFrame;
  var lastHref = isTopFrame ? messages.frameURL() : '';

  // What is known of each request, by "type url": the states already queued (bits of
  // STATE_BITS), its first outcome, and whether it waits to be reported pending.
  var requests = captured.ObjectCreate(null);
  var knownRequests = 0;
  var pendingRequests = list();
  var STATE_BITS = table({ loaded: 1, failed: 2, blocked: 4, pending: 8 });

  // `fromTiming`: a resource timing entry, which an error event seen for the request outweighs.
  function report(url, type, state, fromTiming) {
    var key = type + ' ' + url;
    var known = requests[key];
    if (known === undefined) {
      if (knownRequests >= MAX_KNOWN_REQUESTS) {
        messages.countDropped();
        return;
      }
      knownRequests += 1;
      known = { __proto__: null, url: url, type: type, reported: 0, outcome: null, pending: false };
      requests[key] = known;
    }
    var bit = STATE_BITS[state];
    if ((known.reported & bit) !== 0) { return; }
    if (state === 'pending') {
      if (known.outcome === null && !known.pending) {
        known.pending = true;
        pendingRequests[pendingRequests.length] = known;
      }
      return;
    }
    if (fromTiming && (known.outcome === 'failed' || known.outcome === 'blocked')) { return; }
    if (known.outcome === null) { known.outcome = state; }
    known.pending = false;
    if (messages.enqueue({ __proto__: null, kind: 'request', url: url, type: type, state: state })) {
      known.reported |= bit;
    }
  }

  function checkNavigation() {
    if (!isTopFrame) { return; }
    var href = messages.frameURL();
    if (href !== lastHref) {
      lastHref = href;
      var url = reportableURL(href);
      if (url !== null) { messages.enqueue({ __proto__: null, kind: 'navigation', url: url }); }
    }
  }

  function queuePending() {
    var waiting = pendingRequests;
    pendingRequests = list();
    for (var i = 0; i < waiting.length; i++) {
      var known = waiting[i];
      if (!known.pending || known.outcome !== null) { continue; }
      if (messages.enqueue({ __proto__: null, kind: 'request', url: known.url, type: known.type, state: 'pending' })) {
        known.pending = false;
        known.reported |= STATE_BITS.pending;
      }
    }
  }

  // Before each message: a same-document navigation since the last one; at pagehide, the
  // elements whose outcome was never seen, reported pending.
  function beforeFlush(final) {
    checkNavigation();
    if (final) {
      scanPending();
      queuePending();
    }
  }

  // --- Observers ------------------------------------------------------------------------------

  function observeElement(element, state) {
    var request = elementRequest(element);
    if (request === null) { return; }
    elementTypes[request[1]] = request[0];
    report(request[1], request[0], state, false);
  }

  function learnType(element) {
    var request = elementRequest(element);
    if (request !== null) { elementTypes[request[1]] = request[0]; }
  }

  function forEachElement(selector, body) {
    var elements;
    try {
      elements = apply(captured.querySelectorAll, doc, [selector]);
    } catch (e) {
      problem('querySelectorAll', e);
      return;
    }
    for (var i = 0; i < elements.length; i++) {
      try {
        body(elements[i]);
      } catch (e) {
        problem('element', e);
      }
    }
  }

  // The media element (video, audio) whose <source> an element is, or null.
  function mediaOfSource(element) {
    if (tagOf(element) !== 'source') { return null; }
    var parent = parentOf(element);
    var parentTag = tagOf(parent);
    return parentTag === 'video' || parentTag === 'audio' ? parent : null;
  }

  // Whether an element is not a media element's <source>, or is the one it chose (its
  // currentSrc); a media element that chose none requested none of its sources.
  function isChosenSource(element) {
    var media = mediaOfSource(element);
    if (media === null) { return true; }
    var chosen = read(captured.mediaCurrentSrc, media, 'currentSrc');
    return typeof chosen === 'string' && chosen.length > 0 && chosen === read(captured.sourceSrc, element, 'src');
  }

  // Whether an element is a media element's <source> whose type the element cannot play
  // (canPlayType answers ""): skipped without a request.
  function isUnplayableSource(element) {
    var media = mediaOfSource(element);
    if (media === null) { return false; }
    var type = attribute(element, 'type');
    var canPlayType = captured.mediaCanPlayType !== null ? captured.mediaCanPlayType : media.canPlayType;
    return type.length > 0 && apply(canPlayType, media, [type]) === '';
  }

  // Elements still in the document when it is hidden whose load or error was never seen: a
  // frame or object a content blocker blocked fires neither. Scanning once at the end costs far
  // less than a MutationObserver wrapping every node the parser adds in this world.
  function scanPending() {
    forEachElement('script[src],img[src],iframe[src],frame[src],link[href],video[src],' +
      'audio[src],source[src],track[src],embed[src],object[data],input[src]', function (element) {
      // A lazy image or frame below the fold was never asked for.
      if (lower(attribute(element, 'loading')) === 'lazy') { return; }
      // A media element asks for one of its sources, the first it can play: the others were
      // never requested (one that failed fired its own error event).
      if (!isChosenSource(element)) { return; }
      observeElement(element, 'pending');
    });
  }

  function onEntries(list) {
    var entries;
    linksScanned = false;
    try {
      entries = list.getEntries();
    } catch (e) {
      problem('resource timing', e);
      return;
    }
    for (var i = 0; i < entries.length; i++) {
      try {
        var entry = entries[i];
        var url = reportableURL(entry.name);
        if (url === null) { continue; }
        // WebKit makes no entry for a request its content blocker blocked, so an entry is a
        // load. Engines that follow the newer Fetch text also make entries for network errors,
        // indistinguishable from a cross-origin load without Timing-Allow-Origin (both carry
        // only start and end times): an error event seen for the URL wins over its entry.
        report(url, typeOfEntry(entry.initiatorType, url), 'loaded', true);
      } catch (e) {
        problem('resource timing', e);
      }
    }
  }

  // Only events the browser itself fired count: the blocking script fires a synthetic `load` on
  // a script element it replaced with a surrogate (which never reached the network), and a page
  // can dispatch either event at will. `isTrusted` is unforgeable (an own, non-configurable
  // property of every Event).
  function onLoad(event) {
    try {
      if (event.isTrusted === false) return;
      observeElement(event.target, 'loaded');
    } catch (e) {
      problem('load', e);
    }
  }

  function onError(event) {
    try {
      if (event.isTrusted === false) return;
      // A media element fires error at each source of a type it cannot play, never requested.
      if (isUnplayableSource(event.target)) return;
      observeElement(event.target, 'failed');
    } catch (e) {
      problem('error', e);
    }
  }

  // At the window's load event every element of the document has loaded or failed, except what
  // a content blocker blocked without an error event (a frame, an object), lazy ones, and media
  // still buffering (these do not hold the event back): the first are reported pending now, not
  // only when the page goes away. A later load still reports the element loaded.
  function onWindowLoad(event) {
    try {
      // The window's own load event (its target is the document), not an element's.
      if (event.isTrusted === false || (event.target !== doc && event.target !== win)) return;
      scanPending();
      queuePending();
    } catch (e) {
      problem('window load', e);
    }
  }

  function onNavigation() {
    try {
      checkNavigation();
    } catch (e) {}
  }

  function listen(target, type, listener) {
    try {
      apply(captured.addEventListener, target, [type, listener, true]);
    } catch (e) {}
  }

  try {
    if (captured.PerformanceObserver !== null) {
      var performanceObserver = new captured.PerformanceObserver(onEntries);
      performanceObserver.observe({ __proto__: null, type: 'resource', buffered: true });
    }
  } catch (e) {
    problem('PerformanceObserver', e);
  }
  if (captured.addEventListener !== null) {
    // load and error do not bubble, but a capturing listener on the document sees them.
    listen(doc, 'load', onLoad);
    listen(doc, 'error', onError);
    listen(win, 'load', onWindowLoad);
    if (isTopFrame) {
      listen(win, 'popstate', onNavigation);
      listen(win, 'hashchange', onNavigation);
    }
  }
})();
