(function (surrogates) {
  'use strict';
  // The blocking script: the Tracker Radar resolver (the same decisions as the Swift
  // TrackerResolver, over the compact tracker data of CompactTrackerData), surrogates run in
  // place of the tracker scripts they stand for, and, for hosts that cannot block natively,
  // blocking in the page. It runs in the page world at document start, in every frame, so that
  // surrogates can define page globals. Everything it calls after start-up was captured before
  // any page script ran; it never throws into the page. What it sends, and every object it
  // writes to, has no prototype: a page's setters, getters and toJSON on Object.prototype or
  // Array.prototype never see the message (and the secret in it).
  var captured, settings, secret, post, messages, data;
  try {
    var w = window;
    var urlPrototype = w.URL.prototype;
    var getter = function (name) { return Object.getOwnPropertyDescriptor(urlPrototype, name).get; };
    var accessor = function (constructor, name, kind) {
      var descriptor = constructor ? Object.getOwnPropertyDescriptor(constructor.prototype, name) : undefined;
      return descriptor && typeof descriptor[kind] === 'function' ? descriptor[kind] : null;
    };
    captured = {
      window: w,
      apply: Reflect.apply,
      JSONstringify: JSON.stringify,
      JSONparse: JSON.parse,
      document: w.document || null,
      ObjectCreate: Object.create,
      ObjectSetPrototypeOf: Object.setPrototypeOf,
      ObjectDefineProperty: Object.defineProperty,
      ObjectGetOwnPropertyDescriptor: Object.getOwnPropertyDescriptor,
      ArrayIsArray: Array.isArray,
      hasOwnProperty: Object.prototype.hasOwnProperty,
      setTimeout: w.setTimeout,
      clearTimeout: w.clearTimeout,
      performance: w.performance || null,
      performanceNow: w.performance && typeof w.performance.now === 'function' ? w.performance.now : null,
      MathRandom: Math.random,
      MathFloor: Math.floor,
      crypto: w.crypto || null,
      getRandomValues: w.crypto && typeof w.crypto.getRandomValues === 'function' ? w.crypto.getRandomValues : null,
      Uint8Array: w.Uint8Array || null,
      URL: w.URL,
      urlHref: getter('href'),
      urlProtocol: getter('protocol'),
      urlHostname: getter('hostname'),
      urlPort: getter('port'),
      urlPathname: getter('pathname'),
      urlSearch: getter('search'),
      RegExp: RegExp,
      regExpExec: RegExp.prototype.exec,
      stringSlice: String.prototype.slice,
      stringIndexOf: String.prototype.indexOf,
      stringToLowerCase: String.prototype.toLowerCase,
      stringCharCodeAt: String.prototype.charCodeAt,
      Int32Array: w.Int32Array || null,
      WeakMap: w.WeakMap || null,
      weakMapGet: w.WeakMap ? w.WeakMap.prototype.get : null,
      weakMapSet: w.WeakMap ? w.WeakMap.prototype.set : null,
      Promise: w.Promise,
      PromiseReject: w.Promise ? w.Promise.reject : null,
      TypeError: TypeError,
      Event: w.Event || null,
      MutationObserver: w.MutationObserver || null,
      addEventListener: w.EventTarget ? w.EventTarget.prototype.addEventListener : null,
      dispatchEvent: w.EventTarget ? w.EventTarget.prototype.dispatchEvent : null,
      stopImmediatePropagation: w.Event ? w.Event.prototype.stopImmediatePropagation : null,
      getAttribute: w.Element ? w.Element.prototype.getAttribute : null,
      querySelectorAll: w.Element ? w.Element.prototype.querySelectorAll : null,
      createElement: w.Document ? w.Document.prototype.createElement : null,
      appendChild: w.Node ? w.Node.prototype.appendChild : null,
      replaceChild: w.Node ? w.Node.prototype.replaceChild : null,
      setAttribute: w.Element ? w.Element.prototype.setAttribute : null,
      textContentSet: accessor(w.Node, 'textContent', 'set'),
      parentNodeGet: accessor(w.Node, 'parentNode', 'get'),
      customEventDetail: accessor(w.CustomEvent, 'detail', 'get'),
      // What blocking in script needs beyond the above: the base URL a relative URL resolves
      // against, the constructors and methods that start loads, events, and an inert parse of markup.
      baseURIGet: accessor(w.Node, 'baseURI', 'get'),
      nodeNameGet: accessor(w.Node, 'nodeName', 'get'),
      construct: Reflect.construct,
      ObjectGetPrototypeOf: Object.getPrototypeOf,
      ObjectGetOwnPropertyNames: Object.getOwnPropertyNames,
      requestURLGet: accessor(w.Request, 'url', 'get'),
      requestKeepaliveGet: accessor(w.Request, 'keepalive', 'get'),
      EventTarget: w.EventTarget || null,
      CloseEvent: w.CloseEvent || null,
      DOMException: w.DOMException || null,
      eventTypeGet: accessor(w.Event, 'type', 'get'),
      eventTargetGet: accessor(w.Event, 'target', 'get'),
      defaultPreventedGet: accessor(w.Event, 'defaultPrevented', 'get'),
      preventDefault: w.Event ? w.Event.prototype.preventDefault : null,
      composedPath: w.Event && typeof w.Event.prototype.composedPath === 'function' ? w.Event.prototype.composedPath : null,
      submitterGet: accessor(w.SubmitEvent, 'submitter', 'get'),
      removeAttribute: w.Element ? w.Element.prototype.removeAttribute : null,
      closest: w.Element && typeof w.Element.prototype.closest === 'function' ? w.Element.prototype.closest : null,
      isConnectedGet: accessor(w.Node, 'isConnected', 'get'),
      implementationGet: accessor(w.Document, 'implementation', 'get'),
      createHTMLDocument: w.DOMImplementation ? w.DOMImplementation.prototype.createHTMLDocument : null,
      templateContentGet: accessor(w.HTMLTemplateElement, 'content', 'get'),
      innerHTMLGet: accessor(w.Element, 'innerHTML', 'get'),
      innerHTMLSet: accessor(w.Element, 'innerHTML', 'set'),
      outerHTMLGet: accessor(w.Element, 'outerHTML', 'get'),
      fragmentQuerySelectorAll: w.DocumentFragment ? w.DocumentFragment.prototype.querySelectorAll : null,
      DOMParser: w.DOMParser || null,
      parseFromString: w.DOMParser ? w.DOMParser.prototype.parseFromString : null,
      documentElementGet: accessor(w.Document, 'documentElement', 'get'),
      doctypeGet: accessor(w.Document, 'doctype', 'get'),
      doctypeNameGet: accessor(w.DocumentType, 'name', 'get'),
      doctypePublicIdGet: accessor(w.DocumentType, 'publicId', 'get'),
      doctypeSystemIdGet: accessor(w.DocumentType, 'systemId', 'get'),
      // URLs and styles page script gives elements: attribute nodes, text, style sheets.
      nodeTypeGet: accessor(w.Node, 'nodeType', 'get'),
      attrNameGet: accessor(w.Attr, 'name', 'get'),
      attrValueGet: accessor(w.Attr, 'value', 'get'),
      attrValueSet: accessor(w.Attr, 'value', 'set'),
      attrOwnerElementGet: accessor(w.Attr, 'ownerElement', 'get'),
      characterDataGet: accessor(w.CharacterData, 'data', 'get'),
      characterDataSet: accessor(w.CharacterData, 'data', 'set'),
      styleSheetHrefGet: accessor(w.StyleSheet, 'href', 'get'),
      firstChildGet: accessor(w.Node, 'firstChild', 'get'),
      nextSiblingGet: accessor(w.Node, 'nextSibling', 'get'),
      previousSiblingGet: accessor(w.Node, 'previousSibling', 'get'),
      // A Range's boundaries are AbstractRange's since Safari 14.1, Range's before.
      rangeStartContainerGet: accessor(w.Range, 'startContainer', 'get') || accessor(w.AbstractRange, 'startContainer', 'get'),
      rangeStartOffsetGet: accessor(w.Range, 'startOffset', 'get') || accessor(w.AbstractRange, 'startOffset', 'get'),
      rangeEndContainerGet: accessor(w.Range, 'endContainer', 'get') || accessor(w.AbstractRange, 'endContainer', 'get'),
      rangeEndOffsetGet: accessor(w.Range, 'endOffset', 'get') || accessor(w.AbstractRange, 'endOffset', 'get'),
      rangeSetStart: w.Range ? w.Range.prototype.setStart : null,
      rangeSetEnd: w.Range ? w.Range.prototype.setEnd : null,
      rangeCloneContents: w.Range ? w.Range.prototype.cloneContents : null,
      rangeInsertNode: w.Range ? w.Range.prototype.insertNode : null,
      rangeSelectNode: w.Range ? w.Range.prototype.selectNode : null,
      styleValueToString: w.CSSStyleValue && typeof w.CSSStyleValue.prototype.toString === 'function'
        ? w.CSSStyleValue.prototype.toString : null,
      ArrayBufferIsView: w.ArrayBuffer ? w.ArrayBuffer.isView : null,
      arrayBufferByteLengthGet: accessor(w.ArrayBuffer, 'byteLength', 'get'),
      sharedArrayBufferByteLengthGet: accessor(w.SharedArrayBuffer, 'byteLength', 'get'),
      textContentGet: accessor(w.Node, 'textContent', 'get'),
      StringFromCodePoint: String.fromCodePoint,
      console: w.console || null,
      consoleWarn: w.console && typeof w.console.warn === 'function' ? w.console.warn : null,
      // The page protections: navigator.globalPrivacyControl, document.referrer, document.cookie.
      NavigatorPrototype: w.Navigator ? w.Navigator.prototype : null,
      DocumentPrototype: w.Document ? w.Document.prototype : null,
      documentQuerySelectorAll: w.Document ? w.Document.prototype.querySelectorAll : null,
      referrerGet: accessor(w.Document, 'referrer', 'get'),
      cookieGet: accessor(w.Document, 'cookie', 'get'),
      cookieSet: accessor(w.Document, 'cookie', 'set'),
      visibilityStateGet: accessor(w.Document, 'visibilityState', 'get'),
      Error: w.Error,
      DateNow: Date.now,
      String: String
    };
    settings = $SETTINGS$;
    secret = $SECRET$;
    data = $TRACKER_DATA$;
    post = ($BRIDGE$)(settings, captured);
    // Its reports come from page script's own calls: from pagehide (or the document hidden) on,
    // each is posted at once, so that the unload beacons of the page's own handlers reach the host.
    messages = ($MESSAGE_QUEUE$)(settings, captured, secret, post, {
      __proto__: null, script: 'blocking', postWhileLeaving: true, beforeFlush: null, problem: debugLog
    });
  } catch (e) {
    return;
  }

  var apply = captured.apply;

  // An array without a prototype (the message queue's): writing an index never reaches a setter
  // of Array.prototype, and JSON.stringify finds no toJSON.
  var list = messages.list;

  // --- Strings, without the page-replaceable String.prototype -------------------------------

  function slice(s, start, end) { return apply(captured.stringSlice, s, end === undefined ? [start] : [start, end]); }
  function indexOf(s, part, from) { return apply(captured.stringIndexOf, s, [part, from || 0]); }
  function lower(s) { return apply(captured.stringToLowerCase, s, []); }
  function startsWith(s, prefix) { return s.length >= prefix.length && slice(s, 0, prefix.length) === prefix; }
  function has(list, value) {
    for (var i = 0; i < list.length; i++) { if (list[i] === value) { return true; } }
    return false;
  }

  // --- The tracker data -------------------------------------------------------------------

  // The data's tables lose their prototype, so that a lookup of a host never reaches a getter
  // a page put on Object.prototype under that name; lookups also check the kind of value they
  // expect: an array for request-blocklist rules, a string for a CNAME target or a tracker's
  // rules, a number for public-suffix kinds.
  function table(object) {
    if (object === null || typeof object !== 'object') { return captured.ObjectCreate(null); }
    captured.ObjectSetPrototypeOf(object, null);
    return object;
  }
  function set(list) {
    var result = captured.ObjectCreate(null);
    if (list && typeof list.length === 'number') {
      for (var i = 0; i < list.length; i++) { result[list[i]] = true; }
    }
    return result;
  }
  // false: the feature is off; else a set of the domains (with subdomains) it is off for.
  function feature(value) { return value === false || value === undefined ? false : set(value); }

  var trackerText, ruleTexts, cnames, owners, ownersText, entities, suffixes, userAllowlist, contentBlocking,
    trackerAllowlist, requestBlocklist, allowlistRules, blocklistRules, clickToLoad, clickToLoadSites, clickToLoadActions,
    protections, gpcExceptions, referrerExceptions, protectionCNAMEs, cookiePolicy;
  try {
    // Trackers, their rules, owners and entities are text (a script parses text far faster than
    // literals), made into tables or parsed when a decision first needs them.
    trackerText = typeof data.trackers === 'string' ? data.trackers : '{}';
    ruleTexts = table(data.rules);
    cnames = table(data.cnames);
    owners = null;
    ownersText = typeof data.owners === 'string' ? data.owners : '[]';
    entities = typeof data.entities === 'string' ? data.entities : '\n';
    suffixes = table(data.psl);
    userAllowlist = set(data.userAllowlist);
    contentBlocking = data.contentBlocking === undefined ? set([]) : feature(data.contentBlocking);
    trackerAllowlist = feature(data.trackerAllowlist);
    requestBlocklist = feature(data.requestBlocklist);
    allowlistRules = data.allowlist || [];
    blocklistRules = table(data.blocklist);
    // null: no privacy configuration, every block-ctl-* action blocks; false: the feature is off.
    clickToLoad = data.clickToLoad === false ? false : (captured.ArrayIsArray(data.clickToLoad) ? true : null);
    clickToLoadSites = set(clickToLoad === true ? data.clickToLoad[0] : []);
    clickToLoadActions = table(clickToLoad === true ? data.clickToLoad[1] : null);
    protections = table(data.protections);
    gpcExceptions = feature(protections.gpc === undefined ? false : protections.gpc);
    referrerExceptions = feature(protections.referrer === undefined ? false : protections.referrer);
    protectionCNAMEs = table(protections.cnames);
    var cookie = protections.cookie;
    cookiePolicy = captured.ArrayIsArray(cookie) && cookie.length === 4 && typeof cookie[1] === 'number' &&
      typeof cookie[2] === 'number' && captured.ArrayIsArray(cookie[3])
      ? { __proto__: null, exceptions: set(cookie[0]), threshold: cookie[1], maxAge: cookie[2], excluded: cookie[3] }
      : null;
  } catch (e) {
    return;
  }

  // --- URLs and hosts ----------------------------------------------------------------------

  // The common URL that the URL parser returns unchanged, split without it (the URL constructor
  // costs more than the rest of a decision): http or https in lowercase; a host of lowercase
  // labels, none empty, the last not starting with a digit (no IPv4 address) and no punycode; no
  // user; a port without leading zeros; a path and query of characters no percent-encode set holds, with no segment
  // starting with "." or "%" and no "%2" (no dot segment, encoded or not); then "#" or the end.
  var QUICK_URL = new captured.RegExp('^(https?)://((?:[a-z0-9_-]+\\.)*[a-z_-][a-z0-9_-]*)(?::([1-9][0-9]{0,4}))?' +
    '((?:/(?:[A-Za-z0-9_~!$&()*+,;=:@\\[\\]-](?:[A-Za-z0-9._~!$&()*+,;=:@\\[\\]-]|%(?!2))*)?)*)' +
    '(\\?[A-Za-z0-9._~!$&()*+,;=:@\\[\\]%/?-]*)?(?:#|$)');

  // A special URL without a host, which the URL constructor refuses (slowly, by throwing).
  var NO_HOST = new captured.RegExp('^(?:https?|wss?)://(?:[?#]|$)');

  // undefined for a URL the quick split does not take; null for one without a host.
  function quickParse(string) {
    var match = apply(captured.regExpExec, QUICK_URL, [string]);
    if (match === null) { return apply(captured.regExpExec, NO_HOST, [string]) === null ? undefined : null; }
    if (indexOf(match[2], 'xn--') >= 0) { return undefined; }
    var scheme = match[1];
    var port = null;
    if (match[3] !== undefined) {
      // A port without leading zeros; the scheme's default port is no port.
      port = +match[3];
      if (port > 65535) { return undefined; }
      if (port === (scheme === 'https' ? 443 : 80)) { port = null; }
    }
    // Read only, never written to or sent: a literal with every key, so that no lookup reaches
    // Object.prototype (and the common prototype keeps it fast).
    return {
      scheme: scheme,
      host: match[2],
      port: port,
      path: match[4] === '' ? '/' : match[4],
      query: match[5] === undefined ? null : slice(match[5], 1)
    };
  }

  // The parts of a URL the resolver reads, as the Swift CanonicalURL spells them (both follow
  // the WHATWG URL Standard); null for a string that is no absolute URL.
  function parseURL(string) {
    if (typeof string === 'string') {
      var quick = quickParse(string);
      if (quick !== undefined) { return quick; }
    }
    return parseWithURL(string);
  }

  function parseWithURL(string) {
    var url;
    try {
      url = new captured.URL(string);
    } catch (e) {
      return null;
    }
    var path = apply(captured.urlPathname, url, []);
    var search = apply(captured.urlSearch, url, []);
    var query = search === '' ? null : slice(search, 1);
    if (query === null) {
      // `search` is "" both for no query and for an empty one ("…/a?"); the href tells them apart.
      var href = apply(captured.urlHref, url, []);
      var hash = indexOf(href, '#');
      var question = indexOf(href, '?');
      if (question >= 0 && (hash < 0 || question < hash)) { query = ''; }
    }
    var protocol = apply(captured.urlProtocol, url, []);
    var port = apply(captured.urlPort, url, []);
    return {
      scheme: slice(protocol, 0, protocol.length - 1),
      host: apply(captured.urlHostname, url, []),
      port: port === '' ? null : +port,
      path: path,
      query: query
    };
  }

  // key -> [owner index, default (1 block), domain?], parsed at the first decision; each
  // tracker's rules are parsed when it is first matched.
  var trackers = null;
  var parsedRules = captured.ObjectCreate(null);
  function parseTrackers() {
    try {
      return table(captured.JSONparse(trackerText));
    } catch (e) {
      return captured.ObjectCreate(null);
    }
  }

  // The resolver's suffix walk in the trackers: the host, then each parent that still contains a dot.
  function findTracker(host) {
    if (trackers === null) { trackers = parseTrackers(); }
    if (captured.ArrayIsArray(trackers[host])) { return host; }
    var dot = indexOf(host, '.');
    while (dot >= 0) {
      var next = indexOf(host, '.', dot + 1);
      if (next < 0) { return null; }
      var parent = slice(host, dot + 1);
      if (captured.ArrayIsArray(trackers[parent])) { return parent; }
      dot = next;
    }
    return null;
  }

  // Whether `host` is a domain of the set or a subdomain of one (on label boundaries).
  function isWithinSet(host, domains) {
    if (domains[host] === true) { return true; }
    var dot = indexOf(host, '.');
    while (dot >= 0) {
      if (domains[slice(host, dot + 1)] === true) { return true; }
      dot = indexOf(host, '.', dot + 1);
    }
    return false;
  }

  function isWithin(host, domain) {
    if (domain.length === 0 || host.length < domain.length) { return false; }
    if (host.length === domain.length) { return host === domain; }
    return host[host.length - domain.length - 1] === '.' && slice(host, host.length - domain.length) === domain;
  }

  function isWithinAny(host, domains) {
    for (var i = 0; i < domains.length; i++) { if (isWithin(host, domains[i])) { return true; } }
    return false;
  }

  function isDigit(c) { return c >= '0' && c <= '9'; }
  function isHexDigit(c) { return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

  // Whether the last label is a number, which makes the host an IPv4 address (WHATWG URL).
  function endsInNumber(host, end) {
    var start = end;
    while (start > 0 && host[start - 1] !== '.') { start -= 1; }
    if (start === end) { return false; }
    var i;
    var allDigits = true;
    for (i = start; i < end; i++) { if (!isDigit(host[i])) { allDigits = false; break; } }
    if (allDigits) { return true; }
    if (end - start < 2 || host[start] !== '0' || (host[start + 1] !== 'x' && host[start + 1] !== 'X')) { return false; }
    for (i = start + 2; i < end; i++) { if (!isHexDigit(host[i])) { return false; } }
    return true;
  }

  // eTLD+1 by the Public Suffix List algorithm over the entries the data carries (kind bits: 1
  // rule, 2 wildcard, 4 exception); null for IP addresses, malformed hosts and public suffixes.
  var lastHost = null;
  var lastRegistrable = null;
  function registrableDomain(host) {
    if (host === lastHost) { return lastRegistrable; }
    var result = computeRegistrableDomain(host);
    lastHost = host;
    lastRegistrable = result;
    return result;
  }

  var lastSiteHost = null;
  var lastSiteRegistrable = null;
  function siteRegistrableDomain(host) {
    if (host !== lastSiteHost) {
      lastSiteRegistrable = computeRegistrableDomain(host);
      lastSiteHost = host;
    }
    return lastSiteRegistrable;
  }

  // `lookup`: the kinds of a suffix, when not the data's own `psl` table.
  function computeRegistrableDomain(host, lookup) {
    var end = host.length;
    if (end > 0 && host[end - 1] === '.') { end -= 1; }
    if (end === 0 || host[0] === '.') { return null; }
    var previous = '';
    for (var i = 0; i < end; i++) {
      var c = host[i];
      if (c === ':' || c === '[') { return null; }
      if (c === '.' && previous === '.') { return null; }
      previous = c;
    }
    if (endsInNumber(host, end)) { return null; }
    var suffixLabels = 1;
    var labelsSeen = 0;
    var labelEnd = end;
    for (;;) {
      var index = labelEnd - 1;
      while (index >= 0 && host[index] !== '.') { index -= 1; }
      labelsSeen += 1;
      var hasMoreLabels = index >= 0;
      var suffix = slice(host, index + 1, end);
      var kinds = lookup === undefined ? suffixes[suffix] : lookup(suffix);
      if (typeof kinds !== 'number') { break; }
      if (kinds & 4) {
        suffixLabels = labelsSeen - 1;
        break;
      }
      if ((kinds & 1) && labelsSeen > suffixLabels) { suffixLabels = labelsSeen; }
      if (hasMoreLabels && (kinds & 2) && labelsSeen + 1 > suffixLabels) { suffixLabels = labelsSeen + 1; }
      if (!hasMoreLabels) { break; }
      labelEnd = index;
    }
    var wanted = suffixLabels + 1;
    var labels = 0;
    for (var j = end - 1; j >= 0; j--) {
      if (host[j] === '.') {
        labels += 1;
        if (labels === wanted) { return slice(host, j + 1); }
      }
    }
    return labels + 1 === wanted ? host : null;
  }

  // --- The resolver ------------------------------------------------------------------------

  function pathAndQuery(url) {
    return url.query === null ? url.path : url.path + '?' + url.query;
  }

  function appliesOnSite(sites, siteHost) {
    return sites === 1 || isWithinAny(siteHost, sites);
  }

  function isTrackerAllowlisted(url, siteHost) {
    if (trackerAllowlist === false || isWithinSet(siteHost, trackerAllowlist)) { return false; }
    var lowered = null;
    for (var i = 0; i < allowlistRules.length; i++) {
      var rule = allowlistRules[i];
      if (!isWithin(url.host, rule[0])) { continue; }
      if (rule[1] !== '') {
        if (lowered === null) { lowered = lower(pathAndQuery(url)); }
        if (!startsWith(lowered, rule[1])) { continue; }
      }
      if (appliesOnSite(rule[2], siteHost)) { return true; }
    }
    return false;
  }

  // The request blocklist's path patterns: a prefix match where `*` stands for any characters.
  function wildcardPrefixMatch(pattern, text) {
    var star = indexOf(pattern, '*');
    if (star < 0) { return startsWith(text, pattern); }
    if (!startsWith(text, slice(pattern, 0, star))) { return false; }
    var position = star;
    while (star >= 0) {
      var next = indexOf(pattern, '*', star + 1);
      var piece = next < 0 ? slice(pattern, star + 1) : slice(pattern, star + 1, next);
      if (piece !== '') {
        var found = indexOf(text, piece, position);
        if (found < 0) { return false; }
        position = found + piece.length;
      }
      star = next;
    }
    return true;
  }

  function isRequestBlocklisted(url, siteHost) {
    if (requestBlocklist === false || isWithinSet(siteHost, requestBlocklist)) { return false; }
    var domain = registrableDomain(url.host);
    var rules = domain === null ? undefined : blocklistRules[domain];
    if (!captured.ArrayIsArray(rules)) { return false; }
    for (var i = 0; i < rules.length; i++) {
      var rule = rules[i];
      if (url.port !== rule[1] || !isWithin(url.host, rule[0])) { continue; }
      if (rule[2] !== '' && !wildcardPrefixMatch(rule[2], pathAndQuery(url))) { continue; }
      if (appliesOnSite(rule[3], siteHost)) { return true; }
    }
    return false;
  }

  // Rule `options` / `exceptions`: [domains or null, types or null]; every list present must match.
  function conditionMatches(condition, siteHost, type) {
    if (condition[1] !== null && !has(condition[1], type)) { return false; }
    if (condition[0] !== null && !isWithinAny(siteHost, condition[0])) { return false; }
    return true;
  }

  // --- Rule expressions --------------------------------------------------------------------

  // A rule's expression comes compiled (RuleProgram.swift): the Thompson NFA the
  // Swift resolver's matcher builds, run here the way the resolver runs it, one set of states per
  // position of the URL. Nothing backtracks, so a rule costs at most URL length x program size;
  // the engine's RegExp would take seconds on `(a+)+$` against a few dozen characters, and
  // polynomial time on `a.*b.*c` against a long URL. Case-insensitive and unanchored, as Tracker
  // Radar specifies; a character other than ASCII is read by no state, as in the resolver.
  //
  // The program is text, one token per state, the match state last and not written: a character
  // other than A-Z reads itself (a letter in either case); `D` reads any character but \n and \r;
  // `C` and 32 hex digits reads one of the 128 ASCII codes the four 32-bit words hold; `B` is `^`;
  // `E` is `$`; `S<a>;<b>;` goes on to states a and b. Other states go on to the next state,
  // unless `J<n>;` after their token names state n. Before the states, `G<n>;` when matching
  // starts at state n rather than 0, and `L<count>;<text>`: lowercase text every match contains.
  // A program without capital letters is plain text to find.
  var READ = 0, SPLIT = 1, START = 2, END = 3, MATCH = 4;
  var HEX = captured.ObjectCreate(null);
  (function () {
    var digits = '0123456789abcdef';
    for (var i = 0; i < 16; i++) { HEX[digits[i]] = i; }
  })();
  var CAPITAL = new captured.RegExp('[A-Z]');
  var NOT_ASCII = new captured.RegExp('[^\\x00-\\x7f]');

  function integers(count) {
    if (captured.Int32Array !== null) { return new captured.Int32Array(count); }
    var result = list();
    for (var i = 0; i < count; i++) { result[i] = 0; }
    return result;
  }

  // The number ending in `;` at text[position]; -1 when there is none. numberEnd is then the
  // position after the `;`.
  var numberEnd = 0;
  function readNumber(text, position) {
    var value = 0;
    var start = position;
    while (position < text.length && position - start < 9) {
      var c = text[position];
      if (c === ';') {
        numberEnd = position + 1;
        return position > start ? value : -1;
      }
      if (c < '0' || c > '9') { return -1; }
      value = value * 10 + (+c);
      position += 1;
    }
    return -1;
  }

  // The program's header: where matching starts, the text to look for first, whether finding
  // it is the match; the states are read on first need (a plain text program needs none). Null
  // for a malformed program, which never matches.
  function ruleProgram(text) {
    if (typeof text !== 'string') { return null; }
    var position = 0;
    var start = 0;
    var literal = '';
    if (text.length > 0 && text[0] === 'G') {
      start = readNumber(text, 1);
      if (start < 0) { return null; }
      position = numberEnd;
    }
    if (position < text.length && text[position] === 'L') {
      var count = readNumber(text, position + 1);
      if (count < 0 || numberEnd + count > text.length) { return null; }
      literal = slice(text, numberEnd, numberEnd + count);
      position = numberEnd + count;
    }
    var isLiteral = position === 0 && apply(captured.regExpExec, CAPITAL, [text]) === null;
    return {
      __proto__: null, text: text, body: position, start: start, literal: isLiteral ? text : literal,
      isLiteral: isLiteral, nfa: null
    };
  }

  // The states of a program, with the scratch lists its runs share; false when malformed.
  function programStates(program) {
    var text = program.text;
    var kinds = list();
    var nexts = list();
    var others = list();
    var masks = list();
    var position = program.body;
    var length = text.length;
    while (position < length) {
      var state = kinds.length;
      var c = text[position];
      var kind = READ;
      var other = 0;
      var m0 = 0, m1 = 0, m2 = 0, m3 = 0;
      if (c === 'S') {
        kind = SPLIT;
        var first = readNumber(text, position + 1);
        other = first < 0 ? -1 : readNumber(text, numberEnd);
        if (other < 0) { return false; }
        nexts[state] = first;
        position = numberEnd;
      } else {
        if (c === 'B' || c === 'E') {
          kind = c === 'B' ? START : END;
          position += 1;
        } else if (c === 'D') {
          // The resolver's `.`: codes 1 to 127 but \n (10) and \r (13).
          m0 = ~((1 << 10) | (1 << 13) | 1);
          m1 = -1; m2 = -1; m3 = -1;
          position += 1;
        } else if (c === 'C') {
          if (position + 33 > length) { return false; }
          for (var w = 0; w < 4; w++) {
            var word = 0;
            for (var d = 0; d < 8; d++) {
              var digit = HEX[text[position + 1 + 8 * w + d]];
              if (digit === undefined) { return false; }
              word = word * 16 + digit;
            }
            word = word | 0;
            if (w === 0) { m0 = word; } else if (w === 1) { m1 = word; } else if (w === 2) { m2 = word; } else { m3 = word; }
          }
          position += 33;
        } else if (c >= 'A' && c <= 'Z') {
          return false;
        } else {
          var code = apply(captured.stringCharCodeAt, text, [position]);
          if (code >= 128) { return false; }
          var bit = 1 << (code & 31);
          if (code < 32) { m0 = bit; } else if (code < 64) { m1 = bit; } else if (code < 96) { m2 = bit; } else { m3 = bit; }
          // A letter: its capital is 32 codes below, in the word before.
          if (code >= 97 && code <= 122) { m2 = bit; }
          position += 1;
        }
        nexts[state] = state + 1;
        if (position < length && text[position] === 'J') {
          var next = readNumber(text, position + 1);
          if (next < 0) { return false; }
          nexts[state] = next;
          position = numberEnd;
        }
      }
      kinds[state] = kind;
      others[state] = other;
      masks[4 * state] = m0;
      masks[4 * state + 1] = m1;
      masks[4 * state + 2] = m2;
      masks[4 * state + 3] = m3;
    }
    var count = kinds.length + 1;
    if (program.start >= count) { return false; }
    var nfa = {
      __proto__: null, count: count, kind: integers(count), next: integers(count), other: integers(count),
      mask: integers(4 * count), current: integers(count), following: integers(count), seen: integers(count),
      stack: integers(2 * count + 1), generation: 0
    };
    for (var i = 0; i < count - 1; i++) {
      if (nexts[i] >= count || others[i] >= count) { return false; }
      nfa.kind[i] = kinds[i];
      nfa.next[i] = nexts[i];
      nfa.other[i] = others[i];
      for (var j = 0; j < 4; j++) { nfa.mask[4 * i + j] = masks[4 * i + j]; }
    }
    nfa.kind[count - 1] = MATCH;
    for (var k = 0; k < count; k++) { nfa.seen[k] = -1; }
    return nfa;
  }

  // Adds `state` and the states it reaches without reading a character to `states` from `size`
  // on: the new size, or -1 when they reach the match. `seen` marks the states of a generation
  // (a position), so each is added once: a split pushes two states and is expanded once, so the
  // stack holds at most 2 x count + 1.
  function addState(nfa, state, position, length, states, size, generation) {
    var kind = nfa.kind, next = nfa.next, seen = nfa.seen, stack = nfa.stack;
    var depth = 1;
    stack[0] = state;
    while (depth > 0) {
      depth -= 1;
      var index = stack[depth];
      if (seen[index] === generation) { continue; }
      seen[index] = generation;
      switch (kind[index]) {
        case READ:
          states[size] = index;
          size += 1;
          break;
        case SPLIT:
          stack[depth] = nfa.other[index];
          stack[depth + 1] = next[index];
          depth += 2;
          break;
        case START:
          if (position === 0) { stack[depth] = next[index]; depth += 1; }
          break;
        case END:
          if (position === length) { stack[depth] = next[index]; depth += 1; }
          break;
        default:
          return -1;
      }
    }
    return size;
  }

  // Whether the NFA matches somewhere in the `length` character codes: the resolver's
  // simulation. (The length is passed: a typed array's length is a getter a page can replace.)
  function simulate(nfa, start, codes, length) {
    var mask = nfa.mask, next = nfa.next;
    var current = nfa.current, following = nfa.following;
    // Generations go on from the previous run, so that the marks need no clearing, until they
    // near the largest the marks hold.
    if (nfa.generation > 0x3fffffff) {
      for (var i = 0; i < nfa.count; i++) { nfa.seen[i] = -1; }
      nfa.generation = 0;
    }
    var generation = nfa.generation + 1;
    var currentSize = 0;
    var matched = false;
    for (var position = 0; position <= length; position++) {
      // Unanchored: a match may start at every position.
      currentSize = addState(nfa, start, position, length, current, currentSize, generation);
      if (currentSize < 0) { matched = true; break; }
      if (position === length) { break; }
      var code = codes[position];
      generation += 1;
      var followingSize = 0;
      if (code < 128) {
        var word = code >>> 5;
        var bit = 1 << (code & 31);
        for (var slot = 0; slot < currentSize; slot++) {
          var state = current[slot];
          if ((mask[4 * state + word] & bit) === 0) { continue; }
          followingSize = addState(nfa, next[state], position + 1, length, following, followingSize, generation);
          if (followingSize < 0) { break; }
        }
        if (followingSize < 0) { matched = true; break; }
      }
      var swap = current;
      current = following;
      following = swap;
      currentSize = followingSize;
    }
    nfa.generation = generation;
    return matched;
  }

  // The URL the rules are matched against, kept across the rules of a decision: lowercased for
  // the text search, as character codes for the NFA.
  var matchURL = null;
  var matchLowered = '';
  var matchIsASCII = true;
  var matchCodes = null;
  function programMatches(program, url) {
    if (url !== matchURL) {
      matchURL = url;
      matchLowered = lower(url);
      matchIsASCII = apply(captured.regExpExec, NOT_ASCII, [url]) === null;
      matchCodes = null;
    }
    // toLowerCase lowercases ASCII as the resolver does and keeps every run of ASCII characters
    // whole, so the text is missing from it only where the resolver would not find it either;
    // but it also maps a few other characters onto ASCII letters (the Kelvin sign onto k), so
    // finding the text is the match only in an ASCII URL.
    if (program.literal !== '') {
      if (indexOf(matchLowered, program.literal) < 0) { return false; }
      if (program.isLiteral && matchIsASCII) { return true; }
    } else if (program.isLiteral && matchIsASCII) {
      return true;
    }
    if (program.nfa === null) { program.nfa = programStates(program); }
    if (program.nfa === false) { return false; }
    if (matchCodes === null) {
      matchCodes = integers(url.length);
      for (var i = 0; i < url.length; i++) { matchCodes[i] = apply(captured.stringCharCodeAt, url, [i]); }
    }
    return simulate(program.nfa, program.start, matchCodes, url.length);
  }

  // Programs are read on first use, so start-up does not pay for all of them; they are kept
  // beside the rules (key -> array without a prototype), never on the page-visible rule arrays.
  var compiledRules = captured.ObjectCreate(null);
  function ruleMatches(key, index, rule, url) {
    var compiled = compiledRules[key];
    if (compiled === undefined) {
      compiled = list();
      compiledRules[key] = compiled;
    }
    var program = compiled[index];
    if (program === undefined) {
      program = ruleProgram(rule[0]);
      compiled[index] = program;
    }
    return program !== null && programMatches(program, url);
  }

  function ownerName(index) {
    if (owners === null) {
      try {
        owners = captured.JSONparse(ownersText);
      } catch (e) {
        owners = null;
      }
      if (!captured.ArrayIsArray(owners)) { owners = []; }
    }
    return index < owners.length ? owners[index] : undefined;
  }

  // The owner index of the site host's nearest domain in the entities text; -1 for none. A page
  // has one site, found by searching the text; a second site makes a table of it, once.
  var lastEntityHost = null;
  var lastEntityOwner = -1;
  var entityTable = null;
  function entityOwner(host) {
    if (host === lastEntityHost) { return lastEntityOwner; }
    if (lastEntityHost !== null && entityTable === null) { entityTable = buildEntityTable(); }
    var owner = -1;
    var candidate = host;
    var dot = -1;
    for (;;) {
      var found = entityTable !== null ? entityTable[candidate] : findEntity(candidate);
      if (found !== undefined) {
        owner = found;
        break;
      }
      dot = indexOf(host, '.', dot + 1);
      if (dot < 0 || indexOf(host, '.', dot + 1) < 0) { break; }
      candidate = slice(host, dot + 1);
    }
    lastEntityHost = host;
    lastEntityOwner = owner;
    return owner;
  }

  function findEntity(domain) {
    var found = indexOf(entities, '\n' + domain + '\t');
    if (found < 0) { return undefined; }
    var start = found + domain.length + 2;
    return +slice(entities, start, indexOf(entities, '\n', start));
  }

  function buildEntityTable() {
    var result = captured.ObjectCreate(null);
    var start = 1;
    while (start < entities.length) {
      var tab = indexOf(entities, '\t', start);
      var end = indexOf(entities, '\n', start);
      if (tab < 0 || end < 0) { break; }
      result[slice(entities, start, tab)] = +slice(entities, tab + 1, end);
      start = end + 1;
    }
    return result;
  }

  function rulesOf(key) {
    var rules = parsedRules[key];
    if (rules === undefined) {
      var text = ruleTexts[key];
      try {
        rules = typeof text === 'string' ? captured.JSONparse(text) : [];
      } catch (e) {
        rules = [];
      }
      if (!captured.ArrayIsArray(rules)) { rules = []; }
      parsedRules[key] = rules;
    }
    return rules;
  }

  // Never sent: one literal with every key (undefined for those that do not apply), written
  // whole, so that no setter of Object.prototype sees it and no lookup of its keys reaches one.
  function decision(action, reason, tracker, key, surrogate, clickToLoadAction) {
    return {
      action: action,
      reason: reason,
      tracker: tracker === null ? undefined : (tracker.length > 2 ? tracker[2] : key),
      owner: tracker !== null && tracker[0] >= 0 ? ownerName(tracker[0]) : undefined,
      surrogate: surrogate,
      clickToLoad: clickToLoadAction
    };
  }

  // Whether a Click-to-Load rule with `action` blocks on the site: not unblocked by the user on
  // this page, and (with a privacy configuration) the clickToLoad feature on for the site, an
  // enabled entity listing the action, and the site not one of those entities' own.
  function clickToLoadBlocks(action, siteHost, unblocked) {
    if (unblocked !== null && has(unblocked, action)) { return false; }
    if (clickToLoad === null) { return true; }
    if (clickToLoad === false || isWithinSet(siteHost, clickToLoadSites)) { return false; }
    var listing = clickToLoadActions[action];
    if (!captured.ArrayIsArray(listing)) { return false; }
    var siteOwner = entityOwner(siteHost);
    return siteOwner < 0 || !has(listing, siteOwner);
  }

  // The Swift TrackerResolver's procedure, step for step (see its documentation); null when a
  // URL cannot be parsed.
  function decideParsed(request, site, type, unblocked) {
    var siteHost = site.host;

    // Step 1: the tracker, directly or through a CNAME of the exact host.
    var key = findTracker(request.host);
    var cnameTarget = null;
    if (key === null) {
      var target = cnames[request.host];
      if (typeof target === 'string') {
        key = findTracker(target);
        if (key !== null) { cnameTarget = target; }
      }
    }
    var tracker = key === null ? null : trackers[key];

    // Step 2: protection off for the site.
    if (userAllowlist[siteHost] === true) {
      return decision(tracker === null ? null : 'ignore', 'user allowlist', tracker, key);
    }
    if (contentBlocking === false || isWithinSet(siteHost, contentBlocking)) {
      return decision(tracker === null ? null : 'ignore', 'unprotected domain', tracker, key);
    }

    // Step 3: the request blocklist.
    var allowlisted = isTrackerAllowlisted(request, siteHost);
    if (type !== 'main_frame' && !allowlisted && isRequestBlocklisted(request, siteHost)) {
      return decision('block', 'request blocklist', tracker, key);
    }

    // Steps 4 and 5: not a tracker; navigations.
    if (tracker === null) { return decision(null, 'no match', null, null); }
    if (type === 'main_frame') { return decision('ignore', 'main frame', tracker, key); }

    // Step 6: first party, by entity or (found directly) by eTLD+1.
    if (tracker[0] >= 0 && entityOwner(siteHost) === tracker[0]) {
      return decision('ignore', 'first party', tracker, key);
    }
    if (cnameTarget === null) {
      // The request's eTLD+1 is a suffix of its host: it can only be the site's when the host
      // ends with the site's.
      var siteSite = siteRegistrableDomain(siteHost);
      if (siteSite !== null && isWithin(request.host, siteSite) && registrableDomain(request.host) === siteSite) {
        return decision('ignore', 'first party', tracker, key);
      }
    }

    // Step 7: the tracker allowlist.
    if (allowlisted) { return decision('ignore', 'tracker allowlist', tracker, key); }

    // Step 8: the tracker's rules; the first that applies decides.
    var rules = rulesOf(key);
    if (rules.length > 0) {
      var url = request.scheme + '://' + (cnameTarget === null ? request.host : cnameTarget) + pathAndQuery(request);
      for (var i = 0; i < rules.length; i++) {
        var rule = rules[i];
        if (rule.length > 2 && rule[2] !== null && !conditionMatches(rule[2], siteHost, type)) { continue; }
        if (!ruleMatches(key, i, rule, url)) { continue; }
        var ctl = rule.length > 4 && typeof rule[4] === 'string' ? rule[4] : undefined;
        if (ctl !== undefined && !clickToLoadBlocks(ctl, siteHost, unblocked)) { continue; }
        var action = rule[1];
        if (action === 1) { return decision('ignore', 'matched rule - ignore', tracker, key); }
        if (rule.length > 3 && rule[3] !== null && conditionMatches(rule[3], siteHost, type)) {
          return decision('ignore', 'matched rule - exception', tracker, key);
        }
        if (typeof action === 'string') { return decision('redirect', 'matched rule - surrogate', tracker, key, action, ctl); }
        return decision('block', 'matched rule - block', tracker, key, undefined, ctl);
      }
    }

    // Step 9: the tracker's default.
    return tracker[1] === 1 ? decision('block', 'default block', tracker, key) : decision('ignore', 'default ignore', tracker, key);
  }

  var lastSiteURL = null;
  var lastSite = null;
  // `unblocked`: the Click-to-Load rule actions the user allowed on the page (an array), or
  // undefined for the document's own (those clicked in its placeholders).
  function decide(requestURL, siteURL, type, unblocked) {
    var request = parseURL(requestURL);
    // The final dot of a fully qualified host names the same host (`tracker.com.`): the
    // request is looked up, and its rules matched, without it, as the Swift resolver does.
    if (request !== null && request.host.length > 1 && request.host[request.host.length - 1] === '.') {
      request.host = slice(request.host, 0, request.host.length - 1);
    }
    if (siteURL !== lastSiteURL) {
      lastSite = parseURL(siteURL);
      lastSiteURL = siteURL;
    }
    if (request === null || lastSite === null) { return null; }
    return decideParsed(request, lastSite, type, captured.ArrayIsArray(unblocked) ? unblocked : unblockedActions);
  }

  // --- Messages to the host (JSTemplates/parts/message-queue.js) -----------------------------

  var BLOCK_IN_SCRIPT = settings !== null && typeof settings === 'object' && settings.blockInScript === true;
  // Requests that outlive their document (sendBeacon, fetch with keepalive) are decided here too
  // where the host's native blocking misses them (WebKitGTK's send-request never sees them; rule
  // lists changed at a navigation no longer apply to the page being left).
  var BLOCK_KEEPALIVE = BLOCK_IN_SCRIPT || (settings !== null && typeof settings === 'object' && settings.blockKeepalive === true);
  var DEBUG = settings !== null && typeof settings === 'object' && settings.debug === true;

  var win = captured.window;
  var doc = captured.document;
  var reported = captured.ObjectCreate(null);
  // The Click-to-Load rule actions the user allowed in this document, by clicking a placeholder
  // that the host then answered.
  var unblockedActions = list();
  // Each event once per document: `key` names it (null for one that is never a repeat).
  function enqueue(event, key) {
    if (key !== null) {
      if (reported[key] === true) { return; }
      reported[key] = true;
    }
    messages.enqueue(event);
  }

  function reportable(url) {
    return typeof url === 'string' && url !== '' && (startsWith(url, 'http:') || startsWith(url, 'https:') ||
      startsWith(url, 'ws:') || startsWith(url, 'wss:'));
  }

  function reportSurrogate(url, name) {
    url = messages.cut(url);
    enqueue({ __proto__: null, kind: 'surrogate', url: url, surrogate: name }, 's\n' + url + '\n' + name);
  }

  function reportBlocked(url, type) {
    if (!reportable(url)) { return; }
    url = messages.cut(url);
    enqueue({ __proto__: null, kind: 'request', url: url, type: type, state: 'blocked' }, 'r\n' + url + '\n' + type + '\nblocked');
  }

  function debugLog(text, error) {
    if (!DEBUG || captured.consoleWarn === null) { return; }
    try { apply(captured.consoleWarn, captured.console, ['trackerless: ' + text, error]); } catch (e) { /* no console */ }
  }

  // --- Surrogates ----------------------------------------------------------------------------

  var surrogatesRun = captured.ObjectCreate(null);

  // Runs a surrogate at most once per document; one that throws is reported in debug only.
  function runSurrogate(name) {
    if (surrogatesRun[name] === true) { return; }
    surrogatesRun[name] = true;
    var surrogate = surrogates !== null && typeof surrogates === 'object' &&
      apply(captured.hasOwnProperty, surrogates, [name]) ? surrogates[name] : undefined;
    if (typeof surrogate !== 'function') { return; }
    try {
      apply(surrogate, win, []);
    } catch (error) {
      debugLog('surrogate ' + name + ' threw', error);
    }
  }

  // The base URL of `node`'s document, as the browser resolves a relative URL against it: a
  // `<base href>` counts (fetch('collect') under `<base href="https://tracker.example/">` goes to
  // the tracker), and an about:blank frame has its creator's. Read with the getter captured at
  // start, so a page that redefines `document.baseURI` changes nothing; the document's URL where
  // there is no such getter. Not a node (a Range, window): this document's.
  function baseURL(node) {
    var base = baseURIOf(node);
    if (base === null && node !== doc) { base = baseURIOf(doc); }
    return base === null ? messages.frameURL() : base;
  }

  function baseURIOf(node) {
    if (captured.baseURIGet === null || node === null || typeof node !== 'object') { return null; }
    try {
      var base = apply(captured.baseURIGet, node, []);
      return typeof base === 'string' && base !== '' ? base : null;
    } catch (e) {
      return null;
    }
  }

  // `value` as an absolute URL, resolved against the base URL of `node` (the element that loads
  // it, or this document for fetch, XHR and the other APIs); null when it is none.
  function absoluteURL(value, node) {
    return resolveURL(value, baseURL(node));
  }

  function resolveURL(value, base) {
    try {
      return apply(captured.urlHref, new captured.URL('' + value, base === '' ? undefined : base), []);
    } catch (e) {
      return null;
    }
  }

  // The element's error handlers must not see the load that the content blocker stops; its load
  // handlers must see the load that the surrogate stands for.
  function standIn(element) {
    try { element.onerror = null; } catch (e) { /* a read-only handler */ }
    try {
      apply(captured.addEventListener, element, ['error', function (event) {
        apply(captured.stopImmediatePropagation, event, []);
      }, true]);
    } catch (e) { /* not an event target */ }
    try {
      apply(captured.dispatchEvent, element, [new captured.Event('load')]);
    } catch (error) {
      debugLog('load handler threw', error);
    }
  }

  // The URL each script element last stood in for, so that a mutation seen twice is handled once.
  var handledScripts = captured.WeakMap !== null ? new captured.WeakMap() : null;
  function handleScript(element) {
    var src;
    try { src = apply(captured.getAttribute, element, ['src']); } catch (e) { return; }
    if (typeof src !== 'string' || src === '') { return; }
    var url = absoluteURL(src, element);
    if (url === null || !reportable(url)) { return; }
    if (handledScripts !== null && apply(captured.weakMapGet, handledScripts, [element]) === url) { return; }
    var result = decide(url, messages.topURL(), 'script');
    if (result !== null && result.clickToLoad !== undefined && (result.action === 'block' || result.action === 'redirect')) {
      scriptBlockedByClickToLoad(url, result);
    }
    if (result === null || result.action !== 'redirect') { return; }
    if (handledScripts !== null) { apply(captured.weakMapSet, handledScripts, [element, url]); }
    runSurrogate(result.surrogate);
    standIn(element);
    reportSurrogate(url, result.surrogate);
  }

  function isScript(node) {
    return node !== null && typeof node === 'object' && node.nodeType === 1 && node.nodeName === 'SCRIPT';
  }

  function isFrame(node) {
    return node !== null && typeof node === 'object' && node.nodeType === 1 && node.nodeName === 'IFRAME';
  }

  function handleAdded(node) {
    if (isScript(node)) {
      handleScript(node);
      return;
    }
    if (isFrame(node)) {
      handleFrame(node);
      return;
    }
    if (facebookSDK !== null && isWidget(node)) {
      handleWidget(node);
      return;
    }
    if (node === null || typeof node !== 'object' || node.nodeType !== 1 || captured.querySelectorAll === null) { return; }
    handleWidgetsIn(node, false);
    var nested;
    try { nested = apply(captured.querySelectorAll, node, ['script[src]']); } catch (e) { return; }
    for (var i = 0; i < nested.length; i++) { handleScript(nested[i]); }
    try { nested = apply(captured.querySelectorAll, node, ['iframe[src]']); } catch (e) { return; }
    for (var j = 0; j < nested.length; j++) { handleFrame(nested[j]); }
  }

  // --- Click-to-Load placeholders --------------------------------------------------------------

  // A frame whose URL a Click-to-Load rule blocks is replaced by a placeholder: a button that
  // says what it loads and a one-line privacy note. A click the user made (not a script's)
  // posts a clickToLoad event with a new token; the host removes that action's rule lists for
  // the page and answers with a `trackerless-click-to-load` event on window whose detail is the
  // token. Then the action is unblocked in this document and its frames are put back, which
  // loads them.
  var placeholders = list();
  var clickTokens = captured.ObjectCreate(null);
  var handledFrames = captured.WeakMap !== null ? new captured.WeakMap() : null;

  function make(name, style, text) {
    var element = apply(captured.createElement, doc, [name]);
    apply(captured.setAttribute, element, ['style', style]);
    if (text !== null && captured.textContentSet !== null) { apply(captured.textContentSet, element, [text]); }
    return element;
  }

  function setText(element, text) {
    if (captured.textContentSet !== null) { apply(captured.textContentSet, element, [text]); }
  }

  // An element's attribute (`width`, `data-width`, ...) as the CSS pixels of `property`, only
  // when it is a plain number.
  function dimension(element, name, property) {
    var value;
    try { value = apply(captured.getAttribute, element, [name]); } catch (e) { return ''; }
    if (typeof value !== 'string' || value.length === 0 || value.length > 5) { return ''; }
    for (var i = 0; i < value.length; i++) { if (!isDigit(value[i])) { return ''; } }
    return property + ':' + value + 'px;';
  }

  function canReplace() {
    return doc !== null && captured.createElement !== null && captured.replaceChild !== null && captured.parentNodeGet !== null;
  }

  function handleFrame(element) {
    if (!canReplace()) { return; }
    var src;
    try { src = apply(captured.getAttribute, element, ['src']); } catch (e) { return; }
    if (typeof src !== 'string' || src === '') { return; }
    var url = absoluteURL(src, element);
    if (url === null || !reportable(url)) { return; }
    if (handledFrames !== null && apply(captured.weakMapGet, handledFrames, [element]) === url) { return; }
    var result = decide(url, messages.topURL(), 'subdocument');
    if (result === null || result.clickToLoad === undefined || (result.action !== 'block' && result.action !== 'redirect')) {
      return;
    }
    if (handledFrames !== null) { apply(captured.weakMapSet, handledFrames, [element, url]); }
    replaceWithPlaceholder(element, url, result.clickToLoad, result.owner, 'widthheight', false);
  }

  // Replaces `element` with a placeholder that loads `url` (its action's) on the user's click.
  // `sizes`: 'widthheight' for a frame's width and height attributes, else data-width and
  // data-height (the Facebook SDK's widgets).
  function replaceWithPlaceholder(element, url, action, owner, sizes, isWidget) {
    var parent = apply(captured.parentNodeGet, element, []);
    if (parent === null || typeof parent !== 'object') { return; }
    var parsed = parseURL(url);
    var host = parsed === null ? url : parsed.host;
    var size = sizes === 'widthheight'
      ? dimension(element, 'width', 'width') + dimension(element, 'height', 'height')
      : dimension(element, 'data-width', 'width') + dimension(element, 'data-height', 'height');
    var box = make('div', 'box-sizing:border-box;display:inline-flex;flex-direction:column;align-items:center;' +
      'justify-content:center;gap:8px;padding:16px;max-width:100%;min-height:120px;' + size +
      'border:1px solid #999;border-radius:8px;background:#f4f4f4;color:#222;' +
      'font:14px/1.4 system-ui,sans-serif;text-align:center;', null);
    apply(captured.setAttribute, box, ['data-trackerless-click-to-load', action]);
    var button = make('button', 'font:inherit;padding:8px 16px;border:1px solid #555;border-radius:6px;' +
      'background:#fff;color:#222;cursor:pointer;', 'Load the embedded content from ' + host);
    apply(captured.setAttribute, button, ['type', 'button']);
    var note = make('div', 'font-size:12px;color:#555;', 'Blocked by Trackerless: loading it lets ' +
      (owner !== undefined ? owner : host) + ' see that you visit this page.');
    apply(captured.appendChild, box, [button]);
    apply(captured.appendChild, box, [note]);
    var record = { __proto__: null, element: element, box: box, button: button, url: messages.cut(url),
      action: action, token: null, restored: false, isWidget: isWidget };
    apply(captured.addEventListener, button, ['click', function (event) { clickPlaceholder(record, event); }, false]);
    apply(captured.replaceChild, parent, [box, element]);
    placeholders[placeholders.length] = record;
    // The embed's load is stopped here: no other source would report it to the dashboard.
    reportBlocked(url, 'subdocument');
  }

  // --- The Facebook SDK's widgets ---------------------------------------------------------------

  // Where block-ctl-fb blocks the Facebook SDK (a script element of the page), the SDK's widgets,
  // elements of class fb-like, fb-page, fb-comments, ... that the SDK would fill with a Facebook
  // frame, are replaced by the same placeholder; the host's answer to a click puts them back and
  // adds the SDK's script again, which then loads and fills them.
  var FB_ACTION = 'block-ctl-fb';
  var FB_WIDGETS = ['fb-like', 'fb-page', 'fb-comments', 'fb-post', 'fb-video', 'fb-share-button', 'fb-send',
    'fb-save', 'fb-quote', 'fb-group', 'fb-login-button'];
  var FB_WIDGET_SELECTOR = '.fb-like,.fb-page,.fb-comments,.fb-post,.fb-video,.fb-share-button,.fb-send,' +
    '.fb-save,.fb-quote,.fb-group,.fb-login-button';
  // The blocked SDK: {url, owner, reloaded}, or null.
  var facebookSDK = null;
  var handledWidgets = captured.WeakMap !== null ? new captured.WeakMap() : null;

  function isWidget(node) {
    if (node === null || typeof node !== 'object' || node.nodeType !== 1) { return false; }
    var names;
    try { names = apply(captured.getAttribute, node, ['class']); } catch (e) { return false; }
    if (typeof names !== 'string' || indexOf(names, 'fb-') < 0) { return false; }
    var start = 0;
    while (start < names.length) {
      while (start < names.length && isSpace(names[start])) { start += 1; }
      var end = start;
      while (end < names.length && !isSpace(names[end])) { end += 1; }
      if (end > start && has(FB_WIDGETS, slice(names, start, end))) { return true; }
      start = end;
    }
    return false;
  }

  function isSpace(c) { return c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f'; }

  function handleWidget(element) {
    if (facebookSDK === null || !canReplace() || !isWidget(element)) { return; }
    if (has(unblockedActions, FB_ACTION)) { return; }
    if (handledWidgets !== null) {
      if (apply(captured.weakMapGet, handledWidgets, [element]) === true) { return; }
      apply(captured.weakMapSet, handledWidgets, [element, true]);
    }
    replaceWithPlaceholder(element, facebookSDK.url, FB_ACTION, facebookSDK.owner, 'data', true);
  }

  function handleWidgetsIn(root, isDocument) {
    if (facebookSDK === null) { return; }
    var found;
    try {
      found = apply(isDocument ? captured.documentQuerySelectorAll : captured.querySelectorAll, root, [FB_WIDGET_SELECTOR]);
    } catch (e) { return; }
    for (var i = 0; i < found.length; i++) { handleWidget(found[i]); }
  }

  // A script element that a Click-to-Load rule blocks: for the Facebook SDK, its widgets go.
  function scriptBlockedByClickToLoad(url, result) {
    if (result.clickToLoad !== FB_ACTION || facebookSDK !== null) { return; }
    facebookSDK = { __proto__: null, url: messages.cut(url), owner: result.owner, reloaded: false };
    if (captured.documentQuerySelectorAll !== null) { handleWidgetsIn(doc, true); }
  }

  // After the host's answer: the SDK again, once, beside the first widget put back.
  function reloadFacebookSDK(parent) {
    if (facebookSDK === null || facebookSDK.reloaded) { return; }
    facebookSDK.reloaded = true;
    var script = apply(captured.createElement, doc, ['script']);
    apply(captured.setAttribute, script, ['src', facebookSDK.url]);
    apply(captured.appendChild, parent, [script]);
  }

  function clickPlaceholder(record, event) {
    // A page may click for the user: only the user's own click loads the embed.
    if (event === null || typeof event !== 'object' || event.isTrusted !== true || record.token !== null) { return; }
    record.token = messages.randomId();
    clickTokens[record.token] = record.action;
    setText(record.button, 'Loading\u2026');
    enqueue({ __proto__: null, kind: 'clickToLoad', url: record.url, action: record.action, token: record.token }, null);
    // The user waits for it: posted now, not at the next interval.
    messages.send();
  }

  function hostAnswered(event) {
    var token = null;
    try { token = apply(captured.customEventDetail, event, []); } catch (e) { return; }
    if (typeof token !== 'string') { return; }
    var action = clickTokens[token];
    if (typeof action !== 'string') { return; }
    clickTokens[token] = undefined;
    if (!has(unblockedActions, action)) { unblockedActions[unblockedActions.length] = action; }
    for (var i = 0; i < placeholders.length; i++) {
      var record = placeholders[i];
      if (record.restored || record.action !== action) { continue; }
      record.restored = true;
      var parent = apply(captured.parentNodeGet, record.box, []);
      if (parent !== null && typeof parent === 'object') {
        apply(captured.replaceChild, parent, [record.element, record.box]);
        if (record.isWidget) { reloadFacebookSDK(parent); }
      }
    }
  }

  function observeScripts() {
    if (doc === null || captured.MutationObserver === null) { return; }
    var observer = new captured.MutationObserver(function (mutations) {
      for (var i = 0; i < mutations.length; i++) {
        try {
          var mutation = mutations[i];
          if (mutation.type === 'attributes') {
            if (isScript(mutation.target)) { handleScript(mutation.target); }
            if (isFrame(mutation.target)) { handleFrame(mutation.target); }
            continue;
          }
          var added = mutation.addedNodes;
          for (var j = 0; j < added.length; j++) { handleAdded(added[j]); }
        } catch (error) {
          debugLog('mutation', error);
        }
      }
    });
    observer.observe(doc, { __proto__: null, childList: true, subtree: true, attributes: true, attributeFilter: ['src'] });
  }

  // --- Requests the page's script starts ------------------------------------------------------

  // fetch, XMLHttpRequest, sendBeacon and `src` (of an Image never added to the document too) are
  // wrapped in every mode: each request they start to another host than the top page's is
  // reported, blocked or not, since neither the inference script (a blocked one leaves no trace
  // in the document) nor WebKit (it reports no load its content blocker stopped) can see it. With
  // blockInScript the wrappers also stop the tracker loads (hosts without native content
  // blocking); without, the content blocker decides and the report says `pending`: the host
  // classifies the URL, and counts it blocked when its resolver blocks it unless a load of it
  // was seen.

  // The top page's host, for the last top URL asked about.
  var lastTopURL = null;
  var lastTopHost = null;
  function isOtherHost(url, top) {
    var request = parseURL(url);
    if (request === null) { return false; }
    if (top !== lastTopURL) {
      var site = top === '' ? null : parseURL(top);
      lastTopHost = site === null ? null : site.host;
      lastTopURL = top;
    }
    return request.host !== lastTopHost;
  }

  function reportAttempt(url, type) {
    url = messages.cut(url);
    enqueue({ __proto__: null, kind: 'request', url: url, type: type, state: 'pending' }, 'r\n' + url + '\n' + type + '\npending');
  }

  // A request page script starts: reported (see above); with blockInScript (or `blocks`),
  // whether it is blocked (a decision), after running the surrogate of a redirect; else null. A
  // relative `value` resolves against the base URL of `node`, this document's when absent.
  function shouldBlock(value, type, node, blocks) {
    var url = absoluteURL(value, node);
    if (url === null || !reportable(url)) { return null; }
    var top = messages.topURL();
    if (BLOCK_IN_SCRIPT || blocks === true) {
      var result = decide(url, top, type);
      if (result !== null && result.action === 'block') {
        reportBlocked(url, type);
        return result;
      }
      if (result !== null && result.action === 'redirect') {
        if (type === 'script') {
          runSurrogate(result.surrogate);
          reportSurrogate(url, result.surrogate);
        } else {
          reportBlocked(url, type);
        }
        return result;
      }
    }
    if (isOtherHost(url, top)) { reportAttempt(url, type); }
    return null;
  }

  function later(callback) {
    try { apply(captured.setTimeout, win, [callback, 0]); } catch (e) { /* no timers */ }
  }

  // Whether the load of `value` into `element` is stopped; a stopped one gets the events a
  // stopped load has (error, or load for a surrogate script) after the current task.
  function stopsLoad(element, value, type) {
    var blocked = null;
    try { blocked = shouldBlock(value, type, element); } catch (e) { blocked = null; }
    if (blocked === null) { return false; }
    later(function () {
      if (blocked.action === 'redirect' && type === 'script') {
        standIn(element);
      } else {
        try { apply(captured.dispatchEvent, element, [new captured.Event('error')]); } catch (e) { /* ignore */ }
      }
    });
    return true;
  }

  // A wrapper looks like the built-in it replaces wherever a page or a library looks: the same
  // name and length, the same prototype of the function, the same static properties
  // (WebSocket.OPEN) and, for a constructor, the same `prototype` (so `instanceof` and subclasses
  // work), whose `constructor` is then the wrapper. A method or accessor wrapper is a method
  // definition: like a built-in one, it has no `prototype` and `new` refuses it.
  // Function.prototype.toString shows the wrapper's source.
  function shapedLike(wrapper, original) {
    var names = captured.ObjectGetOwnPropertyNames(original);
    for (var i = 0; i < names.length; i++) {
      if (names[i] === 'caller' || names[i] === 'arguments') { continue; }
      var descriptor = captured.ObjectGetOwnPropertyDescriptor(original, names[i]);
      captured.ObjectSetPrototypeOf(descriptor, null);
      try { captured.ObjectDefineProperty(wrapper, names[i], descriptor); } catch (e) { /* one it cannot take */ }
    }
    captured.ObjectSetPrototypeOf(wrapper, captured.ObjectGetPrototypeOf(original));
    var prototype = captured.ObjectGetOwnPropertyDescriptor(original, 'prototype');
    if (prototype !== undefined && prototype.value !== null && typeof prototype.value === 'object') {
      var constructor = captured.ObjectGetOwnPropertyDescriptor(prototype.value, 'constructor');
      if (constructor !== undefined && constructor.value === original) {
        captured.ObjectDefineProperty(prototype.value, 'constructor', {
          __proto__: null, value: wrapper, writable: constructor.writable, enumerable: constructor.enumerable,
          configurable: constructor.configurable
        });
      }
    }
    return wrapper;
  }

  // The method `name` of `owner` (a prototype) replaced by what `wrap(original)` returns, with
  // the property's attributes; false when there is no such method.
  function replaceMethod(owner, name, wrap) {
    var descriptor = owner ? captured.ObjectGetOwnPropertyDescriptor(owner, name) : undefined;
    if (descriptor === undefined || typeof descriptor.value !== 'function') { return false; }
    captured.ObjectDefineProperty(owner, name, {
      __proto__: null, value: shapedLike(wrap(descriptor.value), descriptor.value), writable: descriptor.writable,
      enumerable: descriptor.enumerable, configurable: descriptor.configurable
    });
    return true;
  }

  // The setter of the accessor `name` of `owner` replaced by what `wrap(originalSetter)` returns.
  function replaceSetter(owner, name, wrap) {
    var descriptor = owner ? captured.ObjectGetOwnPropertyDescriptor(owner, name) : undefined;
    if (descriptor === undefined || typeof descriptor.set !== 'function') { return false; }
    captured.ObjectDefineProperty(owner, name, {
      __proto__: null, get: descriptor.get, set: shapedLike(wrap(descriptor.set), descriptor.set),
      enumerable: descriptor.enumerable, configurable: descriptor.configurable
    });
    return true;
  }

  function prototypeOf(name) {
    var constructor = win[name];
    return typeof constructor === 'function' ? constructor.prototype : null;
  }

  function patchSource(constructorName, type) {
    replaceSetter(prototypeOf(constructorName), 'src', function (originalSet) {
      return {
        __proto__: null,
        set(value) {
          if (stopsLoad(this, value, type)) { return undefined; }
          return apply(originalSet, this, [value]);
        }
      }.set;
    });
  }

  var elementTypes = { __proto__: null, SCRIPT: 'script', IMG: 'image', IFRAME: 'subdocument' };

  // What page script's write of `value` to attribute `name` of `element` does: WITHHELD when the
  // attribute must not be written (the load it starts is stopped and reported), else the value to
  // write in place of the page's (null: the page's as given). A script, img or iframe `src` is
  // reported in every mode; the rest is decided with blockInScript only.
  function attributeWrite(element, name, value) {
    var attribute = typeof name === 'string' ? lower(name) : '';
    var type = element && typeof element.nodeName === 'string' ? elementTypes[element.nodeName] : undefined;
    if (type !== undefined && attribute === 'src') { return stopsLoad(element, value, type) ? WITHHELD : null; }
    if (!BLOCK_IN_SCRIPT) { return null; }
    if (type === 'subdocument' && attribute === 'srcdoc') {
      return typeof value === 'string' ? sanitizedMarkup(value, element, true, true) : null;
    }
    return urlAttributeWrite(element, attribute, value);
  }

  // setAttribute and setAttributeNS (a null namespace, or xlink:href), in every mode.
  function patchSetAttribute() {
    replaceMethod(prototypeOf('Element'), 'setAttribute', function (original) {
      return {
        __proto__: null,
        setAttribute(name, value) {
          var written = null;
          try { written = attributeWrite(this, name, value); } catch (e) { written = null; }
          if (written === WITHHELD) { return undefined; }
          return apply(original, this, written === null ? arguments : [name, written]);
        }
      }.setAttribute;
    });
    replaceMethod(prototypeOf('Element'), 'setAttributeNS', function (original) {
      return {
        __proto__: null,
        setAttributeNS(namespace, qualifiedName, value) {
          var written = null;
          try {
            var name = namespacedName(namespace, qualifiedName);
            written = name === null ? null : attributeWrite(this, name, value);
          } catch (e) { written = null; }
          if (written === WITHHELD) { return undefined; }
          return apply(original, this, written === null ? arguments : [namespace, qualifiedName, written]);
        }
      }.setAttributeNS;
    });
  }

  var XLINK = 'http://www.w3.org/1999/xlink';

  // The name setAttribute would give the attribute setAttributeNS writes, for the namespaces
  // whose attributes load: none (an HTML attribute) and XLink's href; else null.
  function namespacedName(namespace, qualifiedName) {
    if (namespace === null || namespace === undefined || namespace === '') { return '' + qualifiedName; }
    if (namespace !== XLINK) { return null; }
    var name = '' + qualifiedName;
    var colon = indexOf(name, ':');
    return (colon < 0 ? name : slice(name, colon + 1)) === 'href' ? 'xlink:href' : null;
  }

  function patchFetch() {
    var original = win.fetch;
    if (typeof original !== 'function') { return; }
    win.fetch = shapedLike({
      __proto__: null,
      fetch(input, init) {
        var args = arguments;
        var keepalive = false;
        if (BLOCK_KEEPALIVE && !BLOCK_IN_SCRIPT) {
          // fetch gets the init the script read, so that a getter cannot say keepalive to
          // WebKit and not to the script.
          if (init !== null && (typeof init === 'object' || typeof init === 'function')) {
            try {
              init = plainInit(init);
            } catch (error) {
              // fetch itself rejects when reading its init throws.
              return apply(captured.PromiseReject, captured.Promise, [error]);
            }
            args = list();
            args[0] = input;
            args[1] = init;
            keepalive = !!init.keepalive;
          }
          if (!keepalive && captured.requestKeepaliveGet !== null && input !== null && typeof input === 'object') {
            try { keepalive = apply(captured.requestKeepaliveGet, input, []) === true; } catch (e) { /* not a Request */ }
          }
        }
        try {
          if (shouldBlock(requestURL(input), 'xmlhttprequest', undefined, keepalive) !== null) {
            return apply(captured.PromiseReject, captured.Promise, [new captured.TypeError('Failed to fetch')]);
          }
        } catch (e) { /* let the page's call through */ }
        return apply(original, this, args);
      }
    }.fetch, original);
  }

  // The members of fetch's RequestInit, read once each (own or inherited, getters run), into an
  // object of our own: fetch reads from it what the script read.
  var REQUEST_INIT_MEMBERS = ['attributionReporting', 'body', 'browsingTopics', 'cache', 'credentials', 'duplex', 'headers',
    'integrity', 'keepalive', 'method', 'mode', 'priority', 'privateToken', 'redirect', 'referrer', 'referrerPolicy',
    'signal', 'targetAddressSpace', 'window'];
  function plainInit(init) {
    var copy = captured.ObjectCreate(null);
    for (var i = 0; i < REQUEST_INIT_MEMBERS.length; i++) {
      var value = init[REQUEST_INIT_MEMBERS[i]];
      if (value !== undefined) { copy[REQUEST_INIT_MEMBERS[i]] = value; }
    }
    return copy;
  }

  // The URL of fetch's `input`: a Request's own (read with the getter captured at start, which a
  // page cannot replace), else the input as a string.
  function requestURL(input) {
    if (typeof input === 'string' || input === null || typeof input !== 'object') { return '' + input; }
    if (captured.requestURLGet !== null) {
      try { return apply(captured.requestURLGet, input, []); } catch (e) { /* not a Request */ }
    } else if (typeof input.url === 'string') {
      return input.url;
    }
    return '' + input;
  }

  function patchXMLHttpRequest() {
    var prototype = prototypeOf('XMLHttpRequest');
    if (prototype === null) { return; }
    // The URL each request was opened with, without a property on the page's objects: the
    // request starts (and is reported, or blocked) at send().
    var openedURLs = new captured.WeakMap();
    replaceMethod(prototype, 'open', function (originalOpen) {
      return {
        __proto__: null,
        open() {
          try {
            apply(captured.weakMapSet, openedURLs, [this, absoluteURL(arguments[1])]);
          } catch (e) { /* let it open */ }
          return apply(originalOpen, this, arguments);
        }
      }.open;
    });
    replaceMethod(prototype, 'send', function (originalSend) {
      return {
        __proto__: null,
        send() {
          var blocked = false;
          try {
            var url = apply(captured.weakMapGet, openedURLs, [this]);
            blocked = typeof url === 'string' && shouldBlock(url, 'xmlhttprequest') !== null;
          } catch (e) { blocked = false; }
          if (blocked) {
            var request = this;
            later(function () {
              try { apply(captured.dispatchEvent, request, [new captured.Event('error')]); } catch (e) { /* ignore */ }
              try { apply(captured.dispatchEvent, request, [new captured.Event('loadend')]); } catch (e) { /* ignore */ }
            });
            return undefined;
          }
          return apply(originalSend, this, arguments);
        }
      }.send;
    });
  }

  function patchSendBeacon() {
    var navigator = win.navigator;
    if (!navigator || typeof navigator.sendBeacon !== 'function') { return; }
    var original = navigator.sendBeacon;
    navigator.sendBeacon = shapedLike({
      __proto__: null,
      sendBeacon(url, body) {
        try {
          // A beacon a content blocker stops is still "queued" for the page.
          // A beacon is a keepalive request.
          if (shouldBlock(url, 'ping', undefined, BLOCK_KEEPALIVE) !== null) { return true; }
        } catch (e) { /* let it through */ }
        return apply(original, navigator, arguments);
      }
    }.sendBeacon, original);
  }

  // --- Connections, workers and worklets ------------------------------------------------------

  // `new window[name](url, ...)` loads `url` as `type`; a blocked one gets what `standIn(original,
  // arguments, newTarget, url)` makes: an object of the same class that fails as a load the
  // content blocker stopped does, and reaches no network.
  function wrapConstructor(name, type, standIn) {
    var Original = win[name];
    if (typeof Original !== 'function') { return; }
    var wrapper = function (url) {
      // Called without `new`: the built-in's own TypeError.
      if (new.target === undefined) { return apply(Original, this, arguments); }
      var blocked = null;
      try { blocked = shouldBlock(url, type); } catch (e) { blocked = null; }
      if (blocked !== null) {
        var made = null;
        try { made = standIn(Original, arguments, new.target, absoluteURL(url)); } catch (error) { debugLog(name, error); }
        if (made !== null) { return made; }
        throw captured.DOMException !== null ? new captured.DOMException('Blocked by Trackerless', 'SecurityError')
          : new captured.TypeError('Blocked by Trackerless');
      }
      return captured.construct(Original, arguments, new.target);
    };
    win[name] = shapedLike(wrapper, Original);
  }

  // What `new target(...)` gets as its prototype: the page's subclass's, or the built-in's.
  function constructedPrototype(newTarget, Original) {
    var prototype = newTarget.prototype;
    return prototype !== null && (typeof prototype === 'object' || typeof prototype === 'function') ? prototype : Original.prototype;
  }

  // An accessor property of a stand-in, as the built-in's prototype has it.
  function defineAccessor(object, name, get, set) {
    captured.ObjectDefineProperty(object, name, { __proto__: null, get: get, set: set, enumerable: true, configurable: true });
  }

  // `on<type>` of a stand-in: an event handler, called where its first setting put it among the
  // listeners, as an event target's own handlers are.
  function defineHandler(target, type) {
    var handler = null;
    var listening = false;
    defineAccessor(target, 'on' + type, function () { return handler; }, function (value) {
      handler = typeof value === 'function' ? value : null;
      if (handler === null || listening) { return; }
      listening = true;
      apply(captured.addEventListener, target, [type, function (event) {
        if (handler !== null) { return apply(handler, target, [event]); }
        return undefined;
      }, false]);
    });
  }

  // A WebSocket whose connection was blocked, as WebKit's content blocker leaves one: it never
  // opens, and `error` then `close` (code 1006, not clean) come after the current task. A real
  // event target of WebSocket.prototype, whose state and methods are its own (the prototype's
  // would refuse it): no URL could make a real WebSocket fail without a connection attempt.
  function blockedWebSocket(Original, args, newTarget, url) {
    if (captured.EventTarget === null) { return null; }
    var socket = new captured.EventTarget();
    captured.ObjectSetPrototypeOf(socket, constructedPrototype(newTarget, Original));
    var state = 0;
    var binaryType = 'blob';
    var constant = function (value) { return function () { return value; }; };
    defineAccessor(socket, 'url', constant(url), undefined);
    defineAccessor(socket, 'readyState', function () { return state; }, undefined);
    defineAccessor(socket, 'bufferedAmount', constant(0), undefined);
    defineAccessor(socket, 'extensions', constant(''), undefined);
    defineAccessor(socket, 'protocol', constant(''), undefined);
    defineAccessor(socket, 'binaryType', function () { return binaryType; }, function (value) {
      if (value === 'blob' || value === 'arraybuffer') { binaryType = value; }
    });
    defineHandler(socket, 'open');
    defineHandler(socket, 'message');
    defineHandler(socket, 'error');
    defineHandler(socket, 'close');
    var methods = {
      __proto__: null,
      send(data) {
        if (state === 0) {
          throw captured.DOMException !== null ? new captured.DOMException('WebSocket is still in CONNECTING state.', 'InvalidStateError')
            : new captured.TypeError('WebSocket is still in CONNECTING state.');
        }
        return undefined;
      },
      close() {
        if (state < 2) { state = 2; }
        return undefined;
      }
    };
    captured.ObjectDefineProperty(socket, 'send', { __proto__: null, value: methods.send, writable: true, enumerable: true, configurable: true });
    captured.ObjectDefineProperty(socket, 'close', { __proto__: null, value: methods.close, writable: true, enumerable: true, configurable: true });
    later(function () {
      state = 3;
      try { apply(captured.dispatchEvent, socket, [new captured.Event('error')]); } catch (e) { /* ignore */ }
      var close = null;
      try {
        close = captured.CloseEvent !== null
          ? new captured.CloseEvent('close', { __proto__: null, code: 1006, reason: '', wasClean: false })
          : new captured.Event('close');
        apply(captured.dispatchEvent, socket, [close]);
      } catch (e) { /* ignore */ }
    });
    return socket;
  }

  // An event stream that is none: an EventSource of it fails (error, readyState CLOSED) as one
  // whose connection was blocked does, without a request.
  var FAILING_EVENT_STREAM = 'data:text/plain,';
  // A script that does not parse: a worker of it fires `error` at its page as a worker whose
  // script was blocked does, without a request.
  var FAILING_SCRIPT = 'data:text/javascript,(';

  // A real EventSource of FAILING_EVENT_STREAM, whose `url` is the one the page gave.
  function blockedEventSource(Original, args, newTarget, url) {
    var source = captured.construct(Original, [FAILING_EVENT_STREAM, args.length > 1 ? args[1] : undefined], newTarget);
    captured.ObjectDefineProperty(source, 'url', {
      __proto__: null, get: function () { return url; }, set: undefined, enumerable: true, configurable: true
    });
    return source;
  }

  // A real Worker or SharedWorker of FAILING_SCRIPT, with the page's other arguments.
  function blockedWorker(Original, args, newTarget) {
    var rest = list();
    rest[0] = FAILING_SCRIPT;
    for (var i = 1; i < args.length; i++) { rest[i] = args[i]; }
    return captured.construct(Original, rest, newTarget);
  }

  // `prototype.name(url, ...)` of the constructor `constructorName` loads `url` as a script and
  // answers a promise: a blocked one rejects with what `failure()` makes, as a failed load does.
  function rejectBlockedLoads(constructorName, name, failure) {
    replaceMethod(prototypeOf(constructorName), name, function (original) {
      return {
        __proto__: null,
        load(url) {
          var blocked = null;
          try { blocked = shouldBlock(url, 'script'); } catch (e) { blocked = null; }
          if (blocked !== null) { return apply(captured.PromiseReject, captured.Promise, [failure()]); }
          return apply(original, this, arguments);
        }
      }.load;
    });
  }

  // navigator.serviceWorker.register(url): a TypeError, as for a script whose fetch failed.
  function patchServiceWorkerRegister() {
    rejectBlockedLoads('ServiceWorkerContainer', 'register', function () { return new captured.TypeError('Script load failed'); });
  }

  // audioWorklet.addModule(url) and every other worklet's: the AbortError of a module that failed
  // to load.
  function patchWorkletAddModule() {
    rejectBlockedLoads('Worklet', 'addModule', function () {
      var message = 'Importing a module script failed.';
      return captured.DOMException !== null ? new captured.DOMException(message, 'AbortError') : new captured.TypeError(message);
    });
  }

  // --- Markup that page script hands the HTML parser (blockInScript) ---------------------------

  // document.write, innerHTML and their like run the HTML parser on markup of page script: the
  // elements it makes load their URLs as the page's own HTML does, through no setter. The markup
  // is parsed first in an inert document (nothing loads, nothing runs); when an element of it
  // would load a URL the resolver blocks, that URL goes and the markup, serialized again, goes to
  // the parser instead (a blocked script element keeps its `src` with a type that never runs, so
  // that the observer stands the surrogate of a redirect in for it). Other markup goes to the
  // parser as the page wrote it.

  // The elements whose attributes load a URL when the parser makes them: [attribute, type].
  var MARKUP_LOADS = {
    __proto__: null,
    IMG: [['src', 'image'], ['srcset', 'image']],
    SOURCE: [['src', 'media'], ['srcset', 'image']],
    SCRIPT: [['src', 'script']],
    IFRAME: [['src', 'subdocument']],
    FRAME: [['src', 'subdocument']],
    EMBED: [['src', 'object']],
    OBJECT: [['data', 'object']],
    VIDEO: [['src', 'media'], ['poster', 'image']],
    AUDIO: [['src', 'media']],
    TRACK: [['src', 'media']],
    INPUT: [['src', 'image']],
    BODY: [['background', 'image']],
    TABLE: [['background', 'image']],
    TD: [['background', 'image']],
    TH: [['background', 'image']],
    // SVG's <image>, whose name keeps its case.
    image: [['href', 'image'], ['xlink:href', 'image']]
  };
  var MARKUP_SELECTOR = 'img,source,script,iframe,frame,embed,object,video,audio,track,input,body,table,td,th,image,link,style,[style]';
  // `as` of a preload, by type.
  var PRELOAD_TYPES = {
    __proto__: null, script: 'script', style: 'stylesheet', image: 'image', font: 'font', fetch: 'xmlhttprequest',
    document: 'subdocument', audio: 'media', video: 'media', track: 'media'
  };
  // Markup without any of these attributes, <link>, SVG's <image> or a CSS url() or @import loads
  // nothing: it goes to the parser unparsed (a link's href loads nothing either).
  var MARKUP_HINT = new captured.RegExp('(?:src|srcset|data|poster|background)\\s*=|<(?:link|image)[\\s/>]|url\\(|@import', 'i');
  var WHOLE_DOCUMENT = new captured.RegExp('<(?:!doctype|html|head|body)[\\s>/]', 'i');
  var inertDocument = null;

  function spaceSeparated(text) {
    var tokens = list();
    var start = 0;
    while (start < text.length) {
      while (start < text.length && isSpace(text[start])) { start += 1; }
      var end = start;
      while (end < text.length && !isSpace(text[end])) { end += 1; }
      if (end > start) { tokens[tokens.length] = slice(text, start, end); }
      start = end;
    }
    return tokens;
  }

  // The URLs of a srcset: each candidate's URL, before its descriptors.
  function srcsetURLs(text) {
    var urls = list();
    var start = 0;
    while (start < text.length) {
      while (start < text.length && (isSpace(text[start]) || text[start] === ',')) { start += 1; }
      var end = start;
      while (end < text.length && !isSpace(text[end])) { end += 1; }
      if (end === start) { break; }
      var url = slice(text, start, end);
      if (url[url.length - 1] === ',') {
        // A URL ended by commas has no descriptors.
        while (url.length > 0 && url[url.length - 1] === ',') { url = slice(url, 0, url.length - 1); }
        start = end;
      } else {
        while (end < text.length && text[end] !== ',') { end += 1; }
        start = end + 1;
      }
      if (url !== '') { urls[urls.length] = url; }
    }
    return urls;
  }

  function attributeOf(element, name) {
    var value = apply(captured.getAttribute, element, [name]);
    return typeof value === 'string' ? value : null;
  }

  // What a <link> loads, by its rel and as; null for one that loads nothing.
  function linkLoads(element) {
    var rels = spaceSeparated(lower(attributeOf(element, 'rel') || ''));
    var type = null;
    for (var i = 0; i < rels.length && type === null; i++) {
      var rel = rels[i];
      if (rel === 'stylesheet') {
        type = 'stylesheet';
      } else if (rel === 'modulepreload') {
        type = 'script';
      } else if (rel === 'preload' || rel === 'prefetch') {
        var as = PRELOAD_TYPES[lower(attributeOf(element, 'as') || '')];
        type = typeof as === 'string' ? as : 'other';
      } else if (indexOf(rel, 'icon') >= 0) {
        type = 'image';
      }
    }
    return type === null ? null : [['href', type]];
  }

  // Takes a blocked href out of a link that loads nothing: a preconnect opens a connection to it
  // (its host in the TLS handshake), with no request to report.
  function withholdsHint(element, base) {
    var href = attributeOf(element, 'href');
    if (href === null || blockedURL(resolveURL(href, base), 'other') === null) { return false; }
    apply(captured.removeAttribute, element, ['href']);
    return true;
  }

  // The decision of the resolver for a URL it blocks (or redirects to a surrogate), else null.
  function blockedURL(url, type) {
    if (url === null || !reportable(url)) { return null; }
    var result = decide(url, messages.topURL(), type);
    return result !== null && (result.action === 'block' || result.action === 'redirect') ? result : null;
  }

  // Takes the blocked URLs out of one element of the inert markup; whether it changed it.
  function sanitizeElement(element, base, scriptsLoad) {
    var name = apply(captured.nodeNameGet, element, []);
    // The inert parse has no scripting: what it finds in <noscript> is text in the page.
    if (captured.closest !== null && apply(captured.closest, element, ['noscript']) !== null) { return false; }
    var changed = sanitizeStyles(element, name, base);
    var loads = name === 'LINK' ? linkLoads(element) : MARKUP_LOADS[name];
    if (loads === null && withholdsHint(element, base)) { return true; }
    if (loads === null || loads === undefined || (name === 'SCRIPT' && !scriptsLoad)) { return changed; }
    if (name === 'INPUT' && lower(attributeOf(element, 'type') || '') !== 'image') { return changed; }
    for (var i = 0; i < loads.length; i++) {
      var attribute = loads[i][0];
      var type = loads[i][1];
      var value = attributeOf(element, attribute);
      if (value === null || value === '') { continue; }
      var urls = attribute === 'srcset' ? srcsetURLs(value) : [value];
      for (var j = 0; j < urls.length; j++) {
        var url = resolveURL(urls[j], base);
        var result = blockedURL(url, type);
        if (result === null) { continue; }
        if (name === 'SCRIPT') {
          apply(captured.setAttribute, element, ['type', 'text/x-trackerless-blocked']);
          if (result.action === 'block') { reportBlocked(url, type); }
        } else {
          apply(captured.removeAttribute, element, [attribute]);
          reportBlocked(url, type);
        }
        changed = true;
        break;
      }
    }
    return changed;
  }

  // Takes the blocked url()s out of an element's `style` attribute and a <style>'s text.
  function sanitizeStyles(element, name, base) {
    var changed = false;
    var style = attributeOf(element, 'style');
    var css = style === null ? null : sanitizedCSS(style, base);
    if (css !== null) {
      apply(captured.setAttribute, element, ['style', css]);
      changed = true;
    }
    if ((name === 'STYLE' || name === 'style') && captured.textContentGet !== null && captured.textContentSet !== null) {
      css = sanitizedCSS(apply(captured.textContentGet, element, []), base);
      if (css !== null) {
        apply(captured.textContentSet, element, [css]);
        changed = true;
      }
    }
    return changed;
  }

  function doctypeText(document) {
    var doctype = apply(captured.doctypeGet, document, []);
    if (doctype === null || captured.doctypeNameGet === null) { return ''; }
    var publicId = apply(captured.doctypePublicIdGet, doctype, []);
    var systemId = apply(captured.doctypeSystemIdGet, doctype, []);
    var ids = publicId !== '' ? ' PUBLIC "' + publicId + '"' + (systemId !== '' ? ' "' + systemId + '"' : '')
      : (systemId !== '' ? ' SYSTEM "' + systemId + '"' : '');
    return '<!DOCTYPE ' + apply(captured.doctypeNameGet, doctype, []) + ids + '>';
  }

  // The markup without the URLs the resolver blocks; null when it has none (or cannot be parsed
  // here). `node`: the element or document whose base URL its relative URLs resolve against (a
  // `<base href>` of the markup first). `scriptsLoad`: whether its script elements load
  // (document.write, createContextualFragment, srcdoc) or never do (innerHTML and the like).
  // `wholeDocument`: a document's markup (srcdoc), else one when it has a doctype, <html>, <head>
  // or <body> (document.write after document.open).
  function sanitizedMarkup(markup, node, scriptsLoad, wholeDocument) {
    if (typeof markup !== 'string' || apply(captured.regExpExec, MARKUP_HINT, [markup]) === null) { return null; }
    var root, query, serialize;
    if (wholeDocument || apply(captured.regExpExec, WHOLE_DOCUMENT, [markup]) !== null) {
      if (captured.DOMParser === null) { return null; }
      var parsed = apply(captured.parseFromString, new captured.DOMParser(), [markup, 'text/html']);
      root = apply(captured.documentElementGet, parsed, []);
      query = captured.querySelectorAll;
      serialize = function () { return doctypeText(parsed) + apply(captured.outerHTMLGet, root, []); };
    } else {
      if (inertDocument === null) {
        inertDocument = apply(captured.createHTMLDocument, apply(captured.implementationGet, doc, []), ['']);
      }
      var template = apply(captured.createElement, inertDocument, ['template']);
      apply(captured.innerHTMLSet, template, [markup]);
      root = apply(captured.templateContentGet, template, []);
      query = captured.fragmentQuerySelectorAll;
      serialize = function () { return apply(captured.innerHTMLGet, template, []); };
    }
    var base = baseURL(node);
    var bases = apply(query, root, ['base[href]']);
    if (bases.length > 0) {
      var own = resolveURL(attributeOf(bases[0], 'href'), base);
      if (own !== null) { base = own; }
    }
    var elements = apply(query, root, [MARKUP_SELECTOR]);
    var changed = false;
    for (var i = 0; i < elements.length; i++) {
      if (sanitizeElement(elements[i], base, scriptsLoad)) { changed = true; }
    }
    return changed ? serialize() : null;
  }

  function sanitizedOrNull(markup, node, scriptsLoad, wholeDocument) {
    try {
      return sanitizedMarkup(markup, node, scriptsLoad, wholeDocument);
    } catch (error) {
      debugLog('markup', error);
      return null;
    }
  }

  // Calls `original` with the sanitized markup in place of argument `index`, or as the page
  // called it when there is nothing to take out or the sanitized call throws (Trusted Types
  // refuse a string where the page gave TrustedHTML: its markup goes as it was).
  function callWithMarkup(original, target, args, index, markup) {
    if (markup === null) { return apply(original, target, args); }
    var changed = list();
    for (var i = 0; i < args.length; i++) { changed[i] = i === index ? markup : args[i]; }
    try {
      return apply(original, target, changed);
    } catch (e) {
      return apply(original, target, args);
    }
  }

  function patchMarkupSinks() {
    if (captured.createHTMLDocument === null || captured.implementationGet === null || captured.templateContentGet === null ||
      captured.innerHTMLSet === null || captured.innerHTMLGet === null || captured.fragmentQuerySelectorAll === null ||
      captured.nodeNameGet === null || captured.removeAttribute === null || doc === null) {
      return;
    }
    // document.write(...markup): at the parser's place; its scripts load and run. The pieces
    // are one markup for the parser, and for the check.
    var writer = function (original) {
      return {
        __proto__: null,
        write() {
          if (arguments.length === 0) { return apply(original, this, arguments); }
          var whole = list();
          whole[0] = '';
          for (var i = 0; i < arguments.length; i++) {
            if (typeof arguments[i] !== 'string') { return apply(original, this, arguments); }
            whole[0] += arguments[i];
          }
          var sanitized = sanitizedOrNull(whole[0], this, true, false);
          return sanitized === null ? apply(original, this, arguments) : callWithMarkup(original, this, whole, 0, sanitized);
        }
      }.write;
    };
    replaceMethod(captured.DocumentPrototype, 'write', writer);
    replaceMethod(captured.DocumentPrototype, 'writeln', writer);
    // innerHTML and outerHTML of elements and shadow roots: their scripts never load. A
    // template's own markup goes to its content, which stays inert in the page too.
    var markupSetter = function (originalSet) {
      return {
        __proto__: null,
        set(value) {
          // A <style>'s markup is its CSS.
          if (isElementNamed(this, STYLES)) {
            var css = null;
            try { css = textWrite(this, value); } catch (e) { css = null; }
            return apply(originalSet, this, [css === null ? value : css]);
          }
          var inert = isElementNamed(this, ['TEMPLATE']);
          return callWithMarkup(originalSet, this, [value], 0, inert ? null : sanitizedOrNull(value, this, false, false));
        }
      }.set;
    };
    replaceSetter(prototypeOf('Element'), 'innerHTML', markupSetter);
    replaceSetter(prototypeOf('ShadowRoot'), 'innerHTML', markupSetter);
    replaceSetter(prototypeOf('Element'), 'outerHTML', function (originalSet) {
      return {
        __proto__: null,
        set(value) {
          return callWithMarkup(originalSet, this, [value], 0, sanitizedOrNull(value, this, false, false));
        }
      }.set;
    });
    // insertAdjacentHTML(position, markup), setHTMLUnsafe(markup): scripts never load either.
    replaceMethod(prototypeOf('Element'), 'insertAdjacentHTML', function (original) {
      return {
        __proto__: null,
        insertAdjacentHTML(position, markup) {
          return callWithMarkup(original, this, arguments, 1, sanitizedOrNull(markup, this, false, false));
        }
      }.insertAdjacentHTML;
    });
    var setHTML = function (original) {
      return {
        __proto__: null,
        setHTMLUnsafe(markup) {
          return callWithMarkup(original, this, arguments, 0, sanitizedOrNull(markup, this, false, false));
        }
      }.setHTMLUnsafe;
    };
    replaceMethod(prototypeOf('Element'), 'setHTMLUnsafe', setHTML);
    replaceMethod(prototypeOf('ShadowRoot'), 'setHTMLUnsafe', setHTML);
    // Range#createContextualFragment(markup): its scripts run once the fragment is inserted.
    replaceMethod(prototypeOf('Range'), 'createContextualFragment', function (original) {
      return {
        __proto__: null,
        createContextualFragment(markup) {
          return callWithMarkup(original, this, arguments, 0, sanitizedOrNull(markup, doc, true, false));
        }
      }.createContextualFragment;
    });
    // iframe.srcdoc (and setAttribute('srcdoc'), in patchSetAttribute): a whole document, whose
    // parser the frame's own blocking script cannot stop.
    replaceSetter(prototypeOf('HTMLIFrameElement'), 'srcdoc', function (originalSet) {
      return {
        __proto__: null,
        set(value) {
          return callWithMarkup(originalSet, this, [value], 0, sanitizedOrNull(value, this, true, true));
        }
      }.set;
    });
  }

  // --- URLs and styles page script gives elements (blockInScript) -----------------------------

  // Page script also starts loads that no request wrapper sees by giving an element a URL (a
  // link's href, a srcset, a video's src or poster, an object's data, an SVG image's href…) or a
  // style a url(): through the element's property, setAttribute, setAttributeNS, an attribute
  // node (its value, nodeValue or textContent, setAttributeNode, the attributes map's
  // setNamedItem), a style declaration (cssText, setProperty, backgroundImage and the other
  // properties, the `style` attribute), a style sheet (insertRule, replace, replaceSync), the
  // text of a <style>, a FontFace's source or a CSS Typed OM value. A blocked URL is withheld:
  // the attribute is not written (an element that would load it gets `error` after the task, as
  // for a load a content blocker stops); a blocked url() of a style is replaced by
  // BLOCKED_CSS_URL, and an image-set() string by BLOCKED_CSS_STRING, which load from no network.

  var WITHHELD = { __proto__: null };
  var BLOCKED_CSS_URL = 'url("data:,")';
  var BLOCKED_CSS_STRING = '"data:,"';
  var STYLES = ['STYLE', 'style'];

  // The type of the load `attribute` (lowercase) of the element named `name` starts: '' for one
  // whose URL is withheld without a report (a link whose rel loads nothing yet, an input that is
  // no image button: a later rel or type would load it); null for an attribute that loads nothing.
  function attributeLoad(element, name, attribute) {
    if (name === 'LINK') {
      if (attribute !== 'href' && attribute !== 'imagesrcset') { return null; }
      var loads = linkLoads(element);
      return loads === null ? '' : (attribute === 'imagesrcset' ? 'image' : loads[0][1]);
    }
    if (name === 'INPUT') {
      return attribute !== 'src' ? null : (lower(attributeOf(element, 'type') || '') === 'image' ? 'image' : '');
    }
    var table = MARKUP_LOADS[name];
    if (table === undefined) { return null; }
    for (var i = 0; i < table.length; i++) {
      if (table[i][0] === attribute) { return table[i][1]; }
    }
    return null;
  }

  // The write of `value` to the URL or style attribute `attribute` (lowercase) of `element`, as
  // attributeWrite answers it. The value is converted to a string once, here, and that string
  // written, so that a page's toString cannot show the check one URL and the browser another.
  function urlAttributeWrite(element, attribute, value) {
    if (captured.nodeNameGet === null || element === null || typeof element !== 'object') { return null; }
    var name = apply(captured.nodeNameGet, element, []);
    if (attribute === 'style') {
      if (value === null || value === undefined) { return null; }
      var style = '' + value;
      var css = sanitizedCSS(style, baseURL(element));
      return css === null ? style : css;
    }
    // A script, img or iframe `src` is stopsLoad's (surrogates, and reports in every mode).
    if (attribute === 'src' && elementTypes[name] !== undefined) { return null; }
    var type = typeof name === 'string' ? attributeLoad(element, name, attribute) : null;
    if (type === null) { return null; }
    var text = '' + value;
    var isSrcset = attribute === 'srcset' || attribute === 'imagesrcset';
    var urls = isSrcset ? srcsetURLs(text) : null;
    var count = isSrcset ? urls.length : 1;
    var base = baseURL(element);
    for (var i = 0; i < count; i++) {
      var url = resolveURL(isSrcset ? urls[i] : text, base);
      if (blockedURL(url, type === '' ? 'other' : type) === null) { continue; }
      if (type !== '') {
        reportBlocked(url, type);
        if (attribute === 'src' || attribute === 'href' || attribute === 'data') { failLater(element); }
      }
      return WITHHELD;
    }
    return text;
  }

  function failLater(target) {
    later(function () {
      try { apply(captured.dispatchEvent, target, [new captured.Event('error')]); } catch (e) { /* ignore */ }
    });
  }

  // The setter `name` of `owner` replaced by one that writes what `write(this, value)` answers:
  // WITHHELD (nothing), a string, or null (the page's value).
  function guardSetter(owner, name, write) {
    return replaceSetter(owner, name, function (originalSet) {
      return {
        __proto__: null,
        set(value) {
          var written = null;
          try { written = write(this, value); } catch (e) { written = null; }
          if (written === WITHHELD) { return undefined; }
          return apply(originalSet, this, [written === null ? value : written]);
        }
      }.set;
    });
  }

  // The getter `name` of `owner` replaced by one that also hands `seen(this, value)` what it gets.
  function observeGetter(owner, name, seen) {
    var descriptor = owner ? captured.ObjectGetOwnPropertyDescriptor(owner, name) : undefined;
    if (descriptor === undefined || typeof descriptor.get !== 'function') { return false; }
    var originalGet = descriptor.get;
    captured.ObjectDefineProperty(owner, name, {
      __proto__: null,
      get: shapedLike({
        __proto__: null,
        get() {
          var value = apply(originalGet, this, []);
          try { seen(this, value); } catch (e) { /* ignore */ }
          return value;
        }
      }.get, originalGet),
      set: descriptor.set, enumerable: descriptor.enumerable, configurable: descriptor.configurable
    });
    return true;
  }

  // The element properties that write a URL attribute: [interface, property, attribute].
  var URL_PROPERTIES = [
    ['HTMLLinkElement', 'href', 'href'], ['HTMLLinkElement', 'imageSrcset', 'imagesrcset'],
    ['HTMLImageElement', 'srcset', 'srcset'], ['HTMLSourceElement', 'src', 'src'], ['HTMLSourceElement', 'srcset', 'srcset'],
    ['HTMLMediaElement', 'src', 'src'], ['HTMLVideoElement', 'poster', 'poster'], ['HTMLObjectElement', 'data', 'data'],
    ['HTMLEmbedElement', 'src', 'src'], ['HTMLInputElement', 'src', 'src'], ['HTMLTrackElement', 'src', 'src'],
    ['HTMLFrameElement', 'src', 'src'], ['HTMLBodyElement', 'background', 'background']
  ];

  function patchURLProperties() {
    for (var i = 0; i < URL_PROPERTIES.length; i++) {
      (function (entry) {
        guardSetter(prototypeOf(entry[0]), entry[1], function (element, value) {
          return urlAttributeWrite(element, entry[2], value);
        });
      })(URL_PROPERTIES[i]);
    }
    // An SVG image's href is an SVGAnimatedString, whose baseVal writes the attribute: the
    // element of each one the page reads is remembered.
    var owners = captured.WeakMap !== null ? new captured.WeakMap() : null;
    if (owners === null) { return; }
    observeGetter(prototypeOf('SVGImageElement'), 'href', function (element, animated) {
      if (animated !== null && typeof animated === 'object') { apply(captured.weakMapSet, owners, [animated, element]); }
    });
    guardSetter(prototypeOf('SVGAnimatedString'), 'baseVal', function (animated, value) {
      var element = apply(captured.weakMapGet, owners, [animated]);
      return element === undefined ? null : urlAttributeWrite(element, 'href', value);
    });
  }

  function nodeTypeOf(node) {
    if (node === null || typeof node !== 'object') { return 0; }
    return captured.nodeTypeGet !== null ? apply(captured.nodeTypeGet, node, []) : node.nodeType;
  }

  // An attribute node's write: one of an element goes as setAttribute would; a detached one is
  // decided when it is attached.
  function attrWrite(attr, value) {
    var element = apply(captured.attrOwnerElementGet, attr, []);
    return element === null ? null : attributeWrite(element, apply(captured.attrNameGet, attr, []), value);
  }

  // Whether attaching `attr` to `element` must not happen; its value rewritten when it must change.
  function withholdsAttr(element, attr) {
    var value = apply(captured.attrValueGet, attr, []);
    var written = attributeWrite(element, apply(captured.attrNameGet, attr, []), value);
    if (written === WITHHELD) { return true; }
    if (written !== null && written !== value) { apply(captured.attrValueSet, attr, [written]); }
    return false;
  }

  // The text page script gives `node`: a <style>'s CSS without its blocked url()s; an attribute
  // node's value as setAttribute would write it. (A text node of a <style> is changeData's.)
  function textWrite(node, value) {
    if (value === null || value === undefined) { return null; }
    var type = nodeTypeOf(node);
    if (type === 2) { return attrWrite(node, value); }
    if (type !== 1 || !isElementNamed(node, STYLES)) { return null; }
    var text = '' + value;
    var css = sanitizedCSS(text, baseURL(node));
    return css === null ? text : css;
  }

  function patchAttributeNodes() {
    if (captured.attrOwnerElementGet === null || captured.attrNameGet === null || captured.attrValueGet === null ||
      captured.attrValueSet === null) {
      return;
    }
    guardSetter(prototypeOf('Attr'), 'value', attrWrite);
    var attach = function (original) {
      return {
        __proto__: null,
        setAttributeNode(attr) {
          var withheld = false;
          try { withheld = withholdsAttr(this, attr); } catch (e) { withheld = false; }
          return withheld ? null : apply(original, this, arguments);
        }
      }.setAttributeNode;
    };
    replaceMethod(prototypeOf('Element'), 'setAttributeNode', attach);
    replaceMethod(prototypeOf('Element'), 'setAttributeNodeNS', attach);
    // element.attributes.setNamedItem(attr): the map's element is remembered where it is read.
    var elements = captured.WeakMap !== null ? new captured.WeakMap() : null;
    if (elements === null) { return; }
    observeGetter(prototypeOf('Element'), 'attributes', function (element, map) {
      if (map !== null && typeof map === 'object') { apply(captured.weakMapSet, elements, [map, element]); }
    });
    var setNamedItem = function (original) {
      return {
        __proto__: null,
        setNamedItem(attr) {
          var withheld = false;
          try {
            var element = apply(captured.weakMapGet, elements, [this]);
            withheld = element !== undefined && withholdsAttr(element, attr);
          } catch (e) { withheld = false; }
          return withheld ? null : apply(original, this, arguments);
        }
      }.setNamedItem;
    };
    replaceMethod(prototypeOf('NamedNodeMap'), 'setNamedItem', setNamedItem);
    replaceMethod(prototypeOf('NamedNodeMap'), 'setNamedItemNS', setNamedItem);
  }

  // --- The text of a <style> (blockInScript) -------------------------------------------------

  // A <style>'s style sheet is the data of its text nodes joined, so a url() may be split across
  // them, and a change to one node (its data, appendData, splitText, a node taken out) or nodes
  // put in (a fragment's, several at once) can complete one. Each change page script makes
  // through the DOM is checked against the text the style would have after it: the blocked URLs
  // of the text it puts in go first (the text node, or string, loses them); when the style's
  // text would still load a blocked URL, its text is replaced whole by that text without them
  // (one text node), and the change is then made to the page's nodes, out of the style.

  var STYLE_REPLACED = { __proto__: null };

  function parentOf(node) {
    return captured.parentNodeGet !== null ? apply(captured.parentNodeGet, node, []) : null;
  }

  // Whether `value` is a node (a page's object is not, whatever it claims).
  function isNode(value) {
    if (value === null || typeof value !== 'object' || captured.nodeTypeGet === null) { return false; }
    try {
      apply(captured.nodeTypeGet, value, []);
      return true;
    } catch (e) {
      return false;
    }
  }

  function isText(node) {
    var type = nodeTypeOf(node);
    return type === 3 || type === 4;
  }

  // The <style> whose text node `node` is, or null.
  function styleOf(node) {
    if (!isNode(node) || !isText(node)) { return null; }
    var parent = parentOf(node);
    return isElementNamed(parent, STYLES) ? parent : null;
  }

  // The text of `style` once changed: its text nodes' data joined, where a node of `edits`
  // ([node, text] pairs) has that text in place of its own, and `inserted` (a text, or null)
  // comes before `reference` (null: at the end).
  function styleTextAfter(style, edits, inserted, reference) {
    var text = '';
    var placed = inserted === null;
    var child = apply(captured.firstChildGet, style, []);
    for (; child !== null; child = apply(captured.nextSiblingGet, child, [])) {
      if (!placed && child === reference) {
        text += inserted;
        placed = true;
      }
      var own = null;
      for (var i = 0; i < edits.length; i++) {
        if (edits[i][0] === child) { own = edits[i][1]; }
      }
      text += own !== null ? own : (isText(child) ? apply(captured.characterDataGet, child, []) : '');
    }
    return placed ? text : text + inserted;
  }

  // Whether `text`, as the style sheet of `style`, loads a blocked URL (nothing reported).
  function styleLoadsBlocked(style, text) {
    return sanitizedCSS(text, baseURL(style), undefined, true) !== null;
  }

  // Replaces the text of `style` whole by `text` without its blocked URLs.
  function replaceStyleText(style, text) {
    var css = sanitizedCSS(text, baseURL(style));
    apply(captured.textContentSet, style, [css === null ? text : css]);
  }

  function pair(node, text) {
    var made = list();
    made[0] = node;
    made[1] = text;
    return made;
  }

  // Page script changes the data of `node`, a text node of `style`, to `data`; `perform()`
  // makes the change it asked for.
  function changeData(style, node, data, perform) {
    var own = sanitizedCSS(data, baseURL(style));
    var written = own === null ? data : own;
    var edits = list();
    edits[0] = pair(node, written);
    var after = styleTextAfter(style, edits, null, null);
    if (styleLoadsBlocked(style, after)) {
      replaceStyleText(style, after);
      return perform();
    }
    if (own === null) { return perform(); }
    apply(captured.characterDataSet, node, [written]);
    return undefined;
  }

  // Page script takes `node` out of `style` (removeChild, remove, or putting it elsewhere):
  // whether the style's text was replaced (then the node is out already).
  function styleRemoval(style, node) {
    var edits = list();
    edits[0] = pair(node, '');
    var after = styleTextAfter(style, edits, null, null);
    if (!styleLoadsBlocked(style, after)) { return false; }
    replaceStyleText(style, after);
    return true;
  }

  // The text `node` puts into a <style>: a text node's data, a fragment's text nodes' data,
  // each without its blocked URLs first.
  function insertedText(node, style) {
    var type = nodeTypeOf(node);
    if (type === 3 || type === 4) {
      cleanStyleText(node, style);
      return apply(captured.characterDataGet, node, []);
    }
    if (type !== 11) { return ''; }
    var text = '';
    var child = apply(captured.firstChildGet, node, []);
    for (; child !== null; child = apply(captured.nextSiblingGet, child, [])) {
      if (isText(child)) {
        cleanStyleText(child, style);
        text += apply(captured.characterDataGet, child, []);
      }
    }
    return text;
  }

  // Page script inserts `items` (nodes, and strings where `strings`: append and the like) into
  // `parent` before `reference` (null: at the end), taking the nodes `removed` out: the
  // arguments to insert with (strings converted once, without their blocked URLs), or
  // STYLE_REPLACED when the <style>'s text would still load a blocked URL and was replaced
  // instead. A node taken out of another <style> is that style's removal.
  function styleInsertion(parent, items, reference, removed, strings) {
    var isStyle = isElementNamed(parent, STYLES);
    var args = list();
    var text = '';
    var edits = list();
    for (var r = 0; r < removed.length; r++) { edits[r] = pair(removed[r], ''); }
    // The node replaceChild and replaceWith take out goes before the new ones come in.
    if (isStyle && removed.length === 1 && styleRemoval(parent, removed[0])) { return STYLE_REPLACED; }
    for (var i = 0; i < items.length; i++) {
      var item = items[i];
      if (!isNode(item)) {
        if (strings) {
          item = '' + item;
          var css = isStyle ? sanitizedCSS(item, baseURL(parent)) : null;
          if (css !== null) { item = css; }
          if (isStyle) { text += item; }
        }
        args[i] = item;
        continue;
      }
      args[i] = item;
      // A node moves: out of its place (in this style too), then in.
      var from = parentOf(item);
      if (from !== null && isElementNamed(from, STYLES) && styleRemoval(from, item)) { from = null; }
      if (!isStyle) { continue; }
      if (from === parent) { edits[edits.length] = pair(item, ''); }
      text += insertedText(item, parent);
    }
    if (!isStyle || !styleLoadsBlocked(parent, styleTextAfter(parent, edits, text, reference))) { return args; }
    replaceStyleText(parent, styleTextAfter(parent, edits, text, reference));
    return STYLE_REPLACED;
  }

  // A text node about to become a <style>'s: its CSS without the blocked url()s.
  function cleanStyleText(node, style) {
    if (nodeTypeOf(node) !== 3 || captured.characterDataGet === null || captured.characterDataSet === null) { return; }
    var css = sanitizedCSS(apply(captured.characterDataGet, node, []), baseURL(style));
    if (css !== null) { apply(captured.characterDataSet, node, [css]); }
  }

  // Text: textContent, nodeValue, data and innerText (of an attribute node, of a <style> and its
  // text nodes); appendData, insertData, replaceData, deleteData and splitText of a <style>'s
  // text node; nodes and strings put into a <style> (appendChild, insertBefore, replaceChild,
  // append, prepend, replaceChildren; before, after and replaceWith of its child) and taken out
  // (removeChild, remove, or put elsewhere).
  function patchText() {
    if (captured.firstChildGet === null || captured.nextSiblingGet === null || captured.characterDataGet === null ||
      captured.characterDataSet === null || captured.textContentSet === null || captured.parentNodeGet === null) {
      return;
    }
    var node = prototypeOf('Node');
    var characterData = prototypeOf('CharacterData');
    var element = prototypeOf('Element');
    // null writes '' with each of these setters; undefined is "undefined" for data only.
    var dataSetter = function (undefinedText) {
      return function (originalSet) {
        return {
          __proto__: null,
          set(value) {
            var self = this;
            var style = null;
            try { style = styleOf(self); } catch (e) { style = null; }
            if (style === null) {
              var written = null;
              try { written = textWrite(self, value); } catch (e) { written = null; }
              if (written === WITHHELD) { return undefined; }
              return apply(originalSet, self, [written === null ? value : written]);
            }
            var text = value === null ? '' : value === undefined ? undefinedText : '' + value;
            return changeData(style, self, text, function () { return apply(originalSet, self, [text]); });
          }
        }.set;
      };
    };
    replaceSetter(node, 'textContent', dataSetter(''));
    replaceSetter(node, 'nodeValue', dataSetter(''));
    replaceSetter(characterData, 'data', dataSetter('undefined'));
    guardSetter(prototypeOf('HTMLElement'), 'innerText', textWrite);
    // appendData(data), insertData(offset, data), replaceData(offset, count, data),
    // deleteData(offset, count): the data after, or null for an offset past the end (the
    // built-in throws). Arguments are converted once, as the built-in would, and passed on so.
    var edit = function (name, count, textAt, change) {
      replaceMethod(characterData, name, function (original) {
        return {
          __proto__: null,
          call() {
            var self = this;
            var style = null;
            try { style = styleOf(self); } catch (e) { style = null; }
            if (style === null) { return apply(original, self, arguments); }
            if (arguments.length < count) { return apply(original, self, arguments); }
            var args = list();
            for (var i = 0; i < arguments.length; i++) {
              args[i] = i >= count ? arguments[i] : i === textAt ? '' + arguments[i] : arguments[i] >>> 0;
            }
            var data = apply(captured.characterDataGet, self, []);
            var after = change(data, args);
            if (after === null) { return apply(original, self, args); }
            return changeData(style, self, after, function () { return apply(original, self, args); });
          }
        }.call;
      });
    };
    var end = function (data, offset, count) { return offset + count > data.length ? data.length : offset + count; };
    edit('appendData', 1, 0, function (data, args) { return data + args[0]; });
    edit('insertData', 2, 1, function (data, args) {
      return args[0] > data.length ? null : slice(data, 0, args[0]) + args[1] + slice(data, args[0]);
    });
    edit('replaceData', 3, 2, function (data, args) {
      return args[0] > data.length ? null : slice(data, 0, args[0]) + args[2] + slice(data, end(data, args[0], args[1]));
    });
    edit('deleteData', 2, -1, function (data, args) {
      return args[0] > data.length ? null : slice(data, 0, args[0]) + slice(data, end(data, args[0], args[1]));
    });
    // splitText leaves the node its head before the tail's node is put after it: the style's
    // text without the tail, for a moment.
    replaceMethod(prototypeOf('Text'), 'splitText', function (original) {
      return {
        __proto__: null,
        splitText(offset) {
          var self = this;
          try {
            var style = styleOf(self);
            if (style !== null) {
              offset = offset >>> 0;
              var data = apply(captured.characterDataGet, self, []);
              var edits = list();
              edits[0] = pair(self, slice(data, 0, offset));
              if (offset <= data.length && styleLoadsBlocked(style, styleTextAfter(style, edits, null, null))) {
                replaceStyleText(style, styleTextAfter(style, list(), null, null));
              }
            }
          } catch (e) { /* split it as it is */ }
          return apply(original, self, [offset]);
        }
      }.splitText;
    });
    // Insertions: `place(self, args)` answers [parent, items, reference, removed, start] of a call on
    // parent; `answer(args)` what the call answers when the style's text was replaced instead.
    var insertion = function (owner, name, strings, place, answer) {
      replaceMethod(owner, name, function (original) {
        return {
          __proto__: null,
          call() {
            var self = this;
            var args = arguments;
            // Not caught: what throws here (a `this` that is no node, a page's toString) throws
            // as the built-in would.
            var where = place(self, arguments);
            if (where !== null) {
              var items = styleInsertion(where[0], where[1], where[2], where[3], strings);
              if (items === STYLE_REPLACED) { return answer(arguments); }
              // The call's own arguments, the items (from where[4] on) as converted.
              args = list();
              for (var i = 0; i < arguments.length; i++) { args[i] = arguments[i]; }
              for (var j = 0; j < items.length; j++) { args[where[4] + j] = items[j]; }
            }
            return apply(original, self, args);
          }
        }.call;
      });
    };
    var first = function (args) { return args[0]; };
    var nothing = function () { return undefined; };
    // One list of the node, or none.
    var only = function (value) {
      var made = list();
      if (value !== undefined) { made[0] = value; }
      return made;
    };
    // `start`: the index of the first item among the call's arguments (0 when absent).
    var on = function (parent, items, reference, removed, start) {
      var where = list();
      where[0] = parent;
      where[1] = items;
      where[2] = reference;
      where[3] = removed;
      where[4] = start === undefined ? 0 : start;
      return where;
    };
    insertion(node, 'appendChild', false, function (self, args) { return on(self, only(args[0]), null, only()); }, first);
    insertion(node, 'insertBefore', false, function (self, args) {
      return on(self, only(args[0]), isNode(args[1]) ? args[1] : null, only());
    }, first);
    insertion(node, 'replaceChild', false, function (self, args) {
      return on(self, only(args[0]), args[1], only(args[1]));
    }, function (args) { return args[1]; });
    insertion(element, 'append', true, function (self, args) { return on(self, args, null, only()); }, nothing);
    insertion(element, 'prepend', true, function (self, args) {
      return on(self, args, apply(captured.firstChildGet, self, []), only());
    }, nothing);
    // Every child goes: the style's text is what comes in.
    insertion(element, 'replaceChildren', true, function (self, args) {
      var removed = list();
      var child = apply(captured.firstChildGet, self, []);
      for (; child !== null; child = apply(captured.nextSiblingGet, child, [])) { removed[removed.length] = child; }
      return on(self, args, null, removed);
    }, nothing);
    // insertAdjacentText(position, text): into the element, or beside it.
    insertion(element, 'insertAdjacentText', true, function (self, args) {
      // Converted once: the call gets the position that was checked.
      args[0] = '' + args[0];
      var position = lower(args[0]);
      var items = only(args[1]);
      if (position === 'afterbegin') { return on(self, items, apply(captured.firstChildGet, self, []), only(), 1); }
      if (position === 'beforeend') { return on(self, items, null, only(), 1); }
      if (position === 'beforebegin') { return on(parentOf(self), items, self, only(), 1); }
      if (position === 'afterend') { return on(parentOf(self), items, apply(captured.nextSiblingGet, self, []), only(), 1); }
      return null;
    }, nothing);
    var childOwners = [characterData, element];
    for (var i = 0; i < childOwners.length; i++) {
      insertion(childOwners[i], 'before', true, function (self, args) { return on(parentOf(self), args, self, only()); }, nothing);
      insertion(childOwners[i], 'after', true, function (self, args) {
        return on(parentOf(self), args, apply(captured.nextSiblingGet, self, []), only());
      }, nothing);
      insertion(childOwners[i], 'replaceWith', true, function (self, args) {
        return on(parentOf(self), args, self, only(self));
      }, nothing);
      replaceMethod(childOwners[i], 'remove', function (original) {
        return {
          __proto__: null,
          remove() {
            try {
              var parent = parentOf(this);
              if (isElementNamed(parent, STYLES)) { styleRemoval(parent, this); }
            } catch (e) { /* take it out as it is */ }
            return apply(original, this, arguments);
          }
        }.remove;
      });
    }
    replaceMethod(node, 'removeChild', function (original) {
      return {
        __proto__: null,
        removeChild(child) {
          try {
            if (isElementNamed(this, STYLES) && isNode(child) && parentOf(child) === this && styleRemoval(this, child)) { return child; }
          } catch (e) { /* take it out as it is */ }
          return apply(original, this, arguments);
        }
      }.removeChild;
    });
  }

  // --- A <style>'s text changed through normalize() or a Range (blockInScript) ---------------

  // WebKit makes these changes in steps, each of which the style parses: normalize() appends a
  // text node's data to the one before it and only then takes it out (the style's text holds
  // that data twice for a moment); deleteContents, extractContents and surroundContents cut the
  // boundary text nodes, then take the nodes between out one at a time (Range::processContents);
  // insertNode splits the start node, its head alone for a moment, before the node goes in.
  // Each text along the way is checked as the other changes are: when one would load a blocked
  // URL, the style gets its text after the change whole, without the blocked URLs, and the call
  // acts on what its range holds outside the style.

  function dataOf(node) { return apply(captured.characterDataGet, node, []); }

  // The child of `parent` at `offset`, or null past the last.
  function childAt(parent, offset) {
    var child = apply(captured.firstChildGet, parent, []);
    for (var i = 0; child !== null && i < offset; i++) { child = apply(captured.nextSiblingGet, child, []); }
    return child;
  }

  // [the <style> that is `container` or holds it, its child on the way there (the style itself
  // when it is the container)], or null.
  function boundaryStyle(container) {
    var child = container;
    for (var node = container; node !== null; node = parentOf(node)) {
      if (isElementNamed(node, STYLES)) { return pair(node, child); }
      child = node;
    }
    return null;
  }

  // Whether a text of `style` along `steps` ([node, text] pairs, each kept by those after it)
  // loads a blocked URL, and the text after the last step (with `inserted` before `reference`).
  function styleAlong(style, steps, inserted, reference) {
    var edits = list();
    var blocked = false;
    for (var i = 0; i < steps.length; i++) {
      edits[i] = steps[i];
      if (!blocked && styleLoadsBlocked(style, styleTextAfter(style, edits, null, null))) { blocked = true; }
    }
    var text = styleTextAfter(style, edits, inserted, reference);
    if (!blocked && inserted !== null && styleLoadsBlocked(style, text)) { blocked = true; }
    return pair(blocked, text);
  }

  // The steps of Range::processContents in `style` for a range from `start` to `end` ([node,
  // offset]; the style's boundary of each, or null): the start node cut, the end node cut, then
  // the nodes between taken out, forward, or backward from the end's when only the end is in.
  function rangeSteps(style, start, startIn, end, endIn) {
    var steps = list();
    var add = function (node, text) { steps[steps.length] = pair(node, text); };
    var from = null;
    var to = null;
    if (startIn !== null && endIn !== null && start[0] === end[0] && isText(start[0])) {
      var data = dataOf(start[0]);
      add(start[0], slice(data, 0, start[1]) + slice(data, end[1] > start[1] ? end[1] : start[1]));
      return steps;
    }
    if (startIn !== null) {
      if (startIn[1] === style) {
        from = childAt(style, start[1]);
      } else {
        if (startIn[1] === start[0] && isText(start[0])) { add(start[0], slice(dataOf(start[0]), 0, start[1])); }
        from = apply(captured.nextSiblingGet, startIn[1], []);
      }
    }
    if (endIn !== null) {
      if (endIn[1] === style) {
        to = childAt(style, end[1]);
      } else {
        if (endIn[1] === end[0] && isText(end[0])) { add(end[0], slice(dataOf(end[0]), end[1])); }
        to = endIn[1];
      }
    }
    // Both in one child element of the style: its text is not the style's.
    if (startIn !== null && endIn !== null && startIn[1] === endIn[1] && startIn[1] !== style) { return steps; }
    var node;
    if (startIn === null && endIn[1] !== style) {
      node = apply(captured.previousSiblingGet, endIn[1], []);
      for (; node !== null; node = apply(captured.previousSiblingGet, node, [])) { add(node, ''); }
      return steps;
    }
    node = startIn === null ? apply(captured.firstChildGet, style, []) : from;
    for (; node !== null && node !== to; node = apply(captured.nextSiblingGet, node, [])) { add(node, ''); }
    return steps;
  }

  function boundaries(range) {
    var start = pair(apply(captured.rangeStartContainerGet, range, []), apply(captured.rangeStartOffsetGet, range, []));
    var end = pair(apply(captured.rangeEndContainerGet, range, []), apply(captured.rangeEndOffsetGet, range, []));
    return pair(start, end);
  }

  // The styles a range's contents cut into whose text along the way loads a blocked URL, each
  // as [style, text after]; `extra(style, startIn, endIn, steps)` answers [inserted, reference]
  // to put in after the steps, or null.
  function blockedRangeStyles(start, end, extra) {
    var startIn = boundaryStyle(start[0]);
    var endIn = boundaryStyle(end[0]);
    var found = list();
    var check = function (style, s, e) {
      var steps = rangeSteps(style, start, s, end, e);
      var more = extra === null ? null : extra(style, s, e, steps);
      var along = styleAlong(style, steps, more === null ? null : more[0], more === null ? null : more[1]);
      if (along[0]) { found[found.length] = pair(style, along[1]); }
    };
    if (startIn !== null) { check(startIn[0], startIn, endIn !== null && endIn[0] === startIn[0] ? endIn : null); }
    if (endIn !== null && (startIn === null || endIn[0] !== startIn[0])) { check(endIn[0], null, endIn); }
    return found;
  }

  // Gives each style of `found` its text, and moves the range's boundaries in it to its edges:
  // the start after its text, the end before it. Whether the range was within one style.
  function replaceRangeStyles(range, found, start, end) {
    var startIn = boundaryStyle(start[0]);
    var endIn = boundaryStyle(end[0]);
    for (var i = 0; i < found.length; i++) {
      var style = found[i][0];
      replaceStyleText(style, found[i][1]);
      if (startIn !== null && startIn[0] === style) {
        apply(captured.rangeSetStart, range, [style, apply(captured.firstChildGet, style, []) === null ? 0 : 1]);
      }
      if (endIn !== null && endIn[0] === style) { apply(captured.rangeSetEnd, range, [style, 0]); }
    }
    return startIn !== null && endIn !== null && startIn[0] === endIn[0];
  }

  // normalize(), and a Range's deleteContents, extractContents, insertNode and surroundContents.
  function patchStyleRanges() {
    if (captured.firstChildGet === null || captured.nextSiblingGet === null || captured.previousSiblingGet === null ||
      captured.characterDataGet === null || captured.textContentSet === null || captured.parentNodeGet === null) {
      return;
    }
    replaceMethod(prototypeOf('Node'), 'normalize', function (original) {
      return {
        __proto__: null,
        normalize() {
          try { normalizeStyles(this); } catch (e) { /* normalize it as it is */ }
          return apply(original, this, arguments);
        }
      }.normalize;
    });
    var range = prototypeOf('Range');
    if (captured.rangeStartContainerGet === null || captured.rangeStartOffsetGet === null || captured.rangeEndContainerGet === null ||
      captured.rangeEndOffsetGet === null || captured.rangeSetStart === null || captured.rangeSetEnd === null ||
      captured.rangeCloneContents === null) {
      return;
    }
    // deleteContents and extractContents: what extractContents answers for a range within one
    // style whose text was replaced is a copy of what it held.
    var contents = function (name) {
      replaceMethod(range, name, function (original) {
        return {
          __proto__: null,
          call() {
            var found = null;
            var copy = null;
            var within = false;
            try {
              var ends = boundaries(this);
              found = blockedRangeStyles(ends[0], ends[1], null);
              if (found.length > 0) {
                copy = apply(captured.rangeCloneContents, this, []);
                within = replaceRangeStyles(this, found, ends[0], ends[1]);
              }
            } catch (e) { /* change it as it is */ }
            var answer = apply(original, this, arguments);
            return within && name === 'extractContents' ? copy : answer;
          }
        }.call;
      });
    };
    contents('deleteContents');
    contents('extractContents');
    // insertNode and surroundContents: nothing more to do when the style's text was replaced.
    var unlessReplaced = function (name, replaces) {
      replaceMethod(range, name, function (original) {
        return {
          __proto__: null,
          call(node) {
            try {
              if (replaces(this, node)) { return undefined; }
            } catch (e) { /* change it as it is */ }
            return apply(original, this, arguments);
          }
        }.call;
      });
    };
    unlessReplaced('insertNode', insertsIntoStyle);
    unlessReplaced('surroundContents', surroundsInStyle);
  }

  // Before normalize() of `root`: each <style> in it (itself included) whose text, as WebKit
  // merges its adjacent text nodes, would load a blocked URL gets its text whole instead.
  function normalizeStyles(root) {
    if (!isNode(root)) { return; }
    var node = root;
    while (node !== null) {
      if (isElementNamed(node, STYLES)) { normalizeStyle(node); }
      var next = apply(captured.firstChildGet, node, []);
      while (next === null && node !== null && node !== root) {
        next = apply(captured.nextSiblingGet, node, []);
        if (next === null) { node = parentOf(node); }
      }
      node = next;
    }
  }

  // Node::normalize merges each run of text nodes into its first non-empty one: that node's data
  // grows by each next one's while the next one is still there.
  function normalizeStyle(style) {
    var steps = list();
    var head = null;
    var child = apply(captured.firstChildGet, style, []);
    for (; child !== null; child = apply(captured.nextSiblingGet, child, [])) {
      if (nodeTypeOf(child) !== 3) {
        head = null;
        continue;
      }
      var data = dataOf(child);
      if (data === '') {
        steps[steps.length] = pair(child, '');
      } else if (head === null) {
        head = pair(child, data);
      } else {
        head = pair(head[0], head[1] + data);
        steps[steps.length] = pair(child, data);
        steps[steps.length] = head;
        steps[steps.length] = pair(child, '');
      }
    }
    var along = styleAlong(style, steps, null, null);
    if (along[0]) { replaceStyleText(style, along[1]); }
  }

  // insertNode(node) where the range starts in a <style>: the start node split (its head alone),
  // then the node in. Whether the style's text was replaced instead (the node is not put in).
  function insertsIntoStyle(range, node) {
    var start = boundaries(range)[0];
    var startIn = boundaryStyle(start[0]);
    if (startIn === null || !isNode(node)) { return false; }
    var style = startIn[0];
    var from = parentOf(node);
    if (from !== null && from !== style && isElementNamed(from, STYLES)) { styleRemoval(from, node); }
    var steps = list();
    if (from === style) { steps[0] = pair(node, ''); }
    var text = insertedText(node, style);
    var along;
    if (startIn[1] === style) {
      along = styleAlong(style, steps, text, childAt(style, start[1]));
    } else if (startIn[1] === start[0] && isText(start[0])) {
      var data = dataOf(start[0]);
      steps[steps.length] = pair(start[0], slice(data, 0, start[1]));
      steps[steps.length] = pair(start[0], slice(data, 0, start[1]) + text + slice(data, start[1]));
      along = styleAlong(style, steps, null, null);
    } else {
      return false;
    }
    if (!along[0]) { return false; }
    replaceStyleText(style, along[1]);
    return true;
  }

  // surroundContents(newParent) within a <style> (elsewhere it throws before any change when it
  // cuts into one): its contents taken out, then newParent put in at the start. Whether the
  // style's text was replaced instead; newParent (an element) is then put in at its end with a
  // copy of the contents.
  function surroundsInStyle(range, newParent) {
    var ends = boundaries(range);
    // The start node (a text node of the style) split at the end of what is left of it: its
    // head alone, then with newParent's data (a text node's) and the tail.
    var found = blockedRangeStyles(ends[0], ends[1], function (style, startIn, endIn, steps) {
      if (startIn === null || endIn === null) { return null; }
      var text = isText(newParent) ? insertedText(newParent, style) : '';
      if (startIn[1] === style) { return text === '' ? null : pair(text, endIn[1] === style ? childAt(style, ends[1][1]) : endIn[1]); }
      if (startIn[1] !== ends[0][0] || !isText(ends[0][0])) { return null; }
      var data = dataOf(ends[0][0]);
      var head = slice(data, 0, ends[0][1]);
      var tail = endIn[1] === startIn[1] ? slice(data, ends[1][1]) : '';
      steps[steps.length] = pair(ends[0][0], head);
      steps[steps.length] = pair(ends[0][0], head + text + tail);
      return null;
    });
    var startIn = boundaryStyle(ends[0][0]);
    var endIn = boundaryStyle(ends[1][0]);
    if (found.length === 0 || startIn === null || endIn === null || startIn[0] !== endIn[0]) { return false; }
    var copy = apply(captured.rangeCloneContents, range, []);
    replaceRangeStyles(range, found, ends[0], ends[1]);
    var style = startIn[0];
    var end = apply(captured.firstChildGet, style, []) === null ? 0 : 1;
    apply(captured.rangeSetEnd, range, [style, end]);
    apply(captured.rangeSetStart, range, [style, end]);
    if (nodeTypeOf(newParent) === 1 && captured.rangeInsertNode !== null && captured.appendChild !== null) {
      apply(captured.textContentSet, newParent, ['']);
      apply(captured.appendChild, newParent, [copy]);
      apply(captured.rangeInsertNode, range, [newParent]);
      if (captured.rangeSelectNode !== null) { apply(captured.rangeSelectNode, range, [newParent]); }
    }
    return true;
  }

  // --- CSS url()s (blockInScript) ------------------------------------------------------------

  // The style declaration properties whose values may hold a url(): every such property of
  // WebKit's (and a few more, whose values then hold none).
  var URL_STYLE_PROPERTY = new captured.RegExp('^css-?text$|background|image|mask|cursor|content|list-?style|filter|' +
    'clip-?path|marker|shape-?outside|box-?reflect|^src$', 'i');
  // A name of CSS as the tokenizer reads an identifier: each character as itself (a letter in
  // either case) or escaped (`\75`, `\000075 `, or `\u` for a letter that is no hex digit), so
  // that `\75rl(` is found as the url( it is.
  function cssNamePattern(name) {
    var source = '';
    for (var i = 0; i < name.length; i++) {
      var c = name[i];
      var code = apply(captured.stringCharCodeAt, name, [i]);
      var literal = c === '-' ? '\\-' : c;
      var hex = '\\\\0{0,4}(?:' + apply(Number.prototype.toString, code, [16]) +
        (c === '-' ? '' : '|' + apply(Number.prototype.toString, code - 32, [16])) + ')(?:\\r\\n|[ \\t\\r\\n\\f])?';
      source += '(?:' + literal + '|' + hex + (HEX[c] === undefined ? '|\\\\' + literal : '') + ')';
    }
    return source;
  }
  // Whatever is no url(), @import or image-set() of a style is written as it is; a backslash may
  // spell one of them.
  var CSS_HINT = new captured.RegExp('url\\(|@import|image-set\\(|\\\\', 'i');
  // Comments and white space, which may stand between @import and its string, and after url()'s
  // string.
  var CSS_GAP = '(?:\\s|/\\*[\\s\\S]*?(?:\\*/|$))*';
  // url(…), quoted or not, and @import's string: the URLs a style loads. A quoted URL's match
  // ends with its string (what follows, up to the `)`, stays); a string or url() the end of the
  // text cuts loads as a closed one would; a string with a newline is a bad string, which loads
  // nothing. Three expressions: JavaScriptCore runs one that holds both url() and @import with
  // its comments, or the escaped names, a hundred times slower than url() alone, so those run
  // only on text that has an @import or a backslash.
  var CSS_STRINGS = '"((?:[^"\\\\\\n\\r\\f]|\\\\[\\s\\S])*)(?:"|$)|\'((?:[^\'\\\\\\n\\r\\f]|\\\\[\\s\\S])*)(?:\'|$)';
  var CSS_URL_BODY = '\\(\\s*(?:' + CSS_STRINGS + '|((?:[^)\\s"\'\\\\]|\\\\[\\s\\S])*)\\s*(?:\\)|$))';
  var CSS_URLS = new captured.RegExp('url' + CSS_URL_BODY, 'gi');
  var CSS_IMPORTS = new captured.RegExp('@import' + CSS_GAP + '(?:' + CSS_STRINGS + ')', 'gi');
  var CSS_ESCAPED_URLS = new captured.RegExp(
    cssNamePattern('url') + CSS_URL_BODY + '|@' + cssNamePattern('import') + CSS_GAP + '(?:' + CSS_STRINGS + ')', 'gi');
  var IMPORT_HINT = new captured.RegExp('@import', 'i');
  // image-set() and -webkit-image-set(), whose options may be bare strings: URLs of images.
  var IMAGE_SET = new captured.RegExp('(?:-' + cssNamePattern('webkit') + '-)?' + cssNamePattern('image-set') + '\\(', 'gi');
  var FONT_FACE = new captured.RegExp('@font-face', 'i');

  // A CSS string or URL token with its escapes undone: `\` and up to six hex digits (and one
  // space after them) is that code point, `\` and a newline nothing, `\` and any other character
  // that character.
  function cssUnescape(text) {
    if (indexOf(text, '\\') < 0) { return text; }
    var result = '';
    for (var i = 0; i < text.length; i++) {
      if (text[i] !== '\\') {
        result += text[i];
        continue;
      }
      i += 1;
      if (i >= text.length) { break; }
      var code = 0;
      var digits = 0;
      while (digits < 6 && i < text.length && isHexDigit(text[i])) {
        code = code * 16 + HEX[lower(text[i])];
        digits += 1;
        i += 1;
      }
      if (digits > 0) {
        if (i >= text.length || !isSpace(text[i])) { i -= 1; }
        result += code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff) ? '\ufffd' : captured.StringFromCodePoint(code);
      } else if (text[i] !== '\n') {
        result += text[i];
      }
    }
    return result;
  }

  // The type of the url() at `position` of `css`, whose last brace before it is at `open` (-1 for
  // none): an @import's stylesheet, a @font-face's font, else an image (backgrounds, list
  // markers, cursors, masks, border images, content).
  function cssURLType(css, position, open) {
    var before = position;
    while (before > 0 && isSpace(css[before - 1])) { before -= 1; }
    if (before >= 7 && lower(slice(css, before - 7, before)) === '@import') { return 'stylesheet'; }
    if (open < 0 || css[open] === '}') { return 'image'; }
    var start = open - 1;
    while (start >= 0 && css[start] !== '}' && css[start] !== ';') { start -= 1; }
    return apply(captured.regExpExec, FONT_FACE, [slice(css, start + 1, open)]) !== null ? 'font' : 'image';
  }

  // `css` (a style sheet, a rule or declarations) with each url(), @import string and
  // image-set() string the resolver blocks replaced by BLOCKED_CSS_URL (a string by
  // BLOCKED_CSS_STRING), and reported unless `silent`; null when it has none. Relative URLs
  // resolve against `base`; `type` (when given) is the type of every URL (a FontFace's source).
  function sanitizedCSS(css, base, type, silent) {
    if (typeof css !== 'string' || apply(captured.regExpExec, CSS_HINT, [css]) === null) { return null; }
    var changed = false;
    var passes = indexOf(css, '\\') >= 0 ? [CSS_ESCAPED_URLS]
      : apply(captured.regExpExec, IMPORT_HINT, [css]) !== null ? [CSS_URLS, CSS_IMPORTS] : [CSS_URLS];
    var step = sanitizedImageSets(css, base, silent);
    if (step !== null) {
      css = step;
      changed = true;
    }
    for (var i = 0; i < passes.length; i++) {
      step = sanitizedMatches(css, base, type, silent, passes[i]);
      if (step !== null) {
        css = step;
        changed = true;
      }
    }
    return changed ? css : null;
  }

  // `css` with each match of `expression` (url() or @import's string, as sanitizedCSS reads
  // them) that the resolver blocks replaced; null when it has none.
  function sanitizedMatches(css, base, type, silent, expression) {
    var result = '';
    var last = 0;
    var match;
    // The last brace before the text read so far: each character is read once.
    var read = 0;
    var brace = -1;
    expression.lastIndex = 0;
    while ((match = apply(captured.regExpExec, expression, [css])) !== null) {
      for (; read < match.index; read++) {
        if (css[read] === '{' || css[read] === '}') { brace = read; }
      }
      var isImport = css[match.index] === '@';
      var raw = match[1] !== undefined ? match[1] : match[2] !== undefined ? match[2] : match[3] !== undefined ? match[3]
        : match[4] !== undefined ? match[4] : match[5];
      var loads = type !== undefined ? type : isImport ? 'stylesheet' : cssURLType(css, match.index, brace);
      var url = silent === true ? null : resolveURL(cssUnescape(raw), base);
      if (silent === true ? !silentlyBlocked(raw, loads, base) : blockedURL(url, loads) === null) { continue; }
      if (silent !== true) { reportBlocked(url, loads); }
      // A quoted url()'s `)` is not in its match: what follows its string stays and closes it.
      var unquoted = !isImport && match[3] !== undefined;
      var replacement = isImport ? '@import ' + BLOCKED_CSS_STRING
        : unquoted ? BLOCKED_CSS_URL : slice(BLOCKED_CSS_URL, 0, BLOCKED_CSS_URL.length - 1);
      result += slice(css, last, match.index) + replacement;
      last = match.index + match[0].length;
    }
    return last === 0 ? null : result + slice(css, last);
  }

  // Whether the resolver blocks the URL `raw` (as the CSS text has it) as `type`, for the checks
  // of a <style>'s whole text, which read the same URLs again at each change of it: the answers
  // are kept, by the text, the base URL and the top page's URL (an answer only goes from blocked
  // to allowed, by a Click-to-Load click, and a stale one then rewrites the style's text with
  // nothing taken out).
  var silentAnswers = captured.ObjectCreate(null);
  var silentAnswerCount = 0;
  var silentTop = null;
  function silentlyBlocked(raw, type, base) {
    if (silentTop === null) {
      silentTop = messages.topURL();
      // Read once per task: the top page's URL costs more than the rest of an answer.
      later(function () { silentTop = null; });
    }
    var key = type + ' ' + silentTop + ' ' + base + ' ' + raw;
    var known = silentAnswers[key];
    if (known === true || known === false) { return known; }
    if (silentAnswerCount >= 5000) {
      silentAnswers = captured.ObjectCreate(null);
      silentAnswerCount = 0;
    }
    known = blockedURL(resolveURL(cssUnescape(raw), base), type) !== null;
    silentAnswers[key] = known;
    silentAnswerCount += 1;
    return known;
  }

  // `css` with each string option of its image-set()s that the resolver blocks replaced by
  // BLOCKED_CSS_STRING; null when it has none. A string inside a function of the image-set
  // (`type("image/avif")`, a url()) is no URL of it.
  function sanitizedImageSets(css, base, silent) {
    var result = '';
    var last = 0;
    var match;
    IMAGE_SET.lastIndex = 0;
    while ((match = apply(captured.regExpExec, IMAGE_SET, [css])) !== null) {
      var depth = 1;
      var position = match.index + match[0].length;
      while (position < css.length && depth > 0) {
        var c = css[position];
        if (c === '"' || c === '\'') {
          var end = stringEnd(css, position);
          if (depth === 1) {
            var raw = slice(css, position + 1, end.close);
            var url = silent === true ? null : resolveURL(cssUnescape(raw), base);
            if (silent === true ? silentlyBlocked(raw, 'image', base) : blockedURL(url, 'image') !== null) {
              if (silent !== true) { reportBlocked(url, 'image'); }
              result += slice(css, last, position) + BLOCKED_CSS_STRING;
              last = end.next;
            }
          }
          position = end.next;
        } else if (c === '/' && css[position + 1] === '*') {
          var close = indexOf(css, '*/', position + 2);
          position = close < 0 ? css.length : close + 2;
        } else {
          if (c === '(') { depth += 1; } else if (c === ')') { depth -= 1; }
          position += c === '\\' ? 2 : 1;
        }
      }
      IMAGE_SET.lastIndex = position;
    }
    return last === 0 ? null : result + slice(css, last);
  }

  // The CSS string that starts with the quote at `start`: `close`, where its text ends, and
  // `next`, the position after it (its closing quote, a newline that makes it a bad string, or
  // the end of the text).
  function stringEnd(css, start) {
    var quote = css[start];
    var position = start + 1;
    while (position < css.length) {
      var c = css[position];
      if (c === quote) { return { __proto__: null, close: position, next: position + 1 }; }
      if (c === '\n' || c === '\r' || c === '\f') { break; }
      position += c === '\\' ? 2 : 1;
    }
    var end = position < css.length ? position : css.length;
    return { __proto__: null, close: end, next: end };
  }

  // Calls `original` with argument `index` (when given) replaced by what `write(this, value)`
  // answers: the CSS without its blocked url()s. No second call with the page's value: a call
  // that throws with the CSS written so throws with the page's.
  function replaceCSSArgument(owner, name, index, write) {
    replaceMethod(owner, name, function (original) {
      return {
        __proto__: null,
        call() {
          var args = arguments;
          try {
            if (args.length > index && args[index] !== null && args[index] !== undefined) {
              // Converted once: what is checked is what is written.
              var text = '' + args[index];
              var css = write(this, text);
              args = list();
              for (var i = 0; i < arguments.length; i++) { args[i] = i !== index ? arguments[i] : (css === null ? text : css); }
            }
          } catch (e) { args = arguments; }
          return apply(original, this, args);
        }
      }.call;
    });
  }

  // Declarations resolve against the document's base URL; a style sheet's rules against its own
  // URL when it has one.
  function declarationCSS(target, text) { return sanitizedCSS(text, baseURL(doc)); }
  function sheetCSS(sheet, text) {
    var href = null;
    try { href = captured.styleSheetHrefGet !== null ? apply(captured.styleSheetHrefGet, sheet, []) : null; } catch (e) { href = null; }
    return sanitizedCSS(text, typeof href === 'string' && href !== '' ? href : baseURL(doc));
  }
  function declarationWrite(target, value) {
    if (value === null || value === undefined) { return null; }
    var text = '' + value;
    var css = declarationCSS(target, text);
    return css === null ? text : css;
  }

  function patchStyles() {
    // WebKit's style properties are accessors of CSSStyleDeclaration.prototype (of
    // CSSStyleProperties.prototype where the engine has that interface), camelCase and dashed.
    var owners = [prototypeOf('CSSStyleProperties'), prototypeOf('CSS2Properties'), prototypeOf('CSSStyleDeclaration')];
    for (var i = 0; i < owners.length; i++) {
      if (owners[i] === null) { continue; }
      var names = captured.ObjectGetOwnPropertyNames(owners[i]);
      for (var j = 0; j < names.length; j++) {
        if (apply(captured.regExpExec, URL_STYLE_PROPERTY, [names[j]]) !== null) { guardSetter(owners[i], names[j], declarationWrite); }
      }
    }
    replaceCSSArgument(prototypeOf('CSSStyleDeclaration'), 'setProperty', 1, declarationCSS);
    // element.style = text writes the declarations as cssText, but not through its setter.
    guardSetter(prototypeOf('HTMLElement'), 'style', declarationWrite);
    guardSetter(prototypeOf('SVGElement'), 'style', declarationWrite);
    guardSetter(prototypeOf('MathMLElement'), 'style', declarationWrite);
    var sheet = prototypeOf('CSSStyleSheet');
    replaceCSSArgument(sheet, 'insertRule', 0, sheetCSS);
    replaceCSSArgument(sheet, 'addRule', 1, sheetCSS);
    replaceCSSArgument(sheet, 'replace', 0, sheetCSS);
    replaceCSSArgument(sheet, 'replaceSync', 0, sheetCSS);
    replaceCSSArgument(prototypeOf('CSSGroupingRule'), 'insertRule', 0, declarationCSS);
    replaceCSSArgument(prototypeOf('CSSKeyframesRule'), 'appendRule', 0, declarationCSS);
    wrapFontFace();
    // CSS Typed OM: what set and append give a style property map (an element's
    // attributeStyleMap, a style rule's styleMap), CSSStyleValue.parse's and parseAll's values
    // included, since a value loads only there.
    var map = prototypeOf('StylePropertyMap');
    replaceMethod(map, 'set', styleMapWrite);
    replaceMethod(map, 'append', styleMapWrite);
  }

  // `new FontFace(family, source)`: the url()s of a source given as CSS text are fonts; a
  // buffer's font loads from no network.
  function wrapFontFace() {
    var Original = win.FontFace;
    if (typeof Original !== 'function') { return; }
    var wrapper = function (family, source) {
      // Called without `new`: the built-in's own TypeError.
      if (new.target === undefined) { return apply(Original, this, arguments); }
      var args = arguments;
      if (arguments.length > 1 && !isBufferSource(source)) {
        // Converted once, outside any catch: a page's toString that throws throws as the
        // built-in's conversion would, and cannot answer a second call otherwise.
        var text = '' + source;
        var css = null;
        try { css = sanitizedCSS(text, baseURL(doc), 'font'); } catch (e) { css = null; }
        args = list();
        for (var i = 0; i < arguments.length; i++) { args[i] = i === 1 ? (css === null ? text : css) : arguments[i]; }
      }
      return captured.construct(Original, args, new.target);
    };
    win.FontFace = shapedLike(wrapper, Original);
  }

  // Whether `value` is an ArrayBuffer, a SharedArrayBuffer or a view of one, which FontFace
  // reads as the font itself.
  function isBufferSource(value) {
    if (value === null || (typeof value !== 'object' && typeof value !== 'function')) { return false; }
    if (captured.ArrayBufferIsView !== null && captured.ArrayBufferIsView(value)) { return true; }
    var getters = [captured.arrayBufferByteLengthGet, captured.sharedArrayBufferByteLengthGet];
    for (var i = 0; i < getters.length; i++) {
      if (getters[i] === null) { continue; }
      try {
        apply(getters[i], value, []);
        return true;
      } catch (e) { /* not this kind of buffer */ }
    }
    return false;
  }

  // StylePropertyMap's set and append: each value written as styleValueWrite answers.
  function styleMapWrite(original) {
    return {
      __proto__: null,
      set(property) {
        var args = list();
        args[0] = property;
        for (var i = 1; i < arguments.length; i++) { args[i] = styleValueWrite(arguments[i]); }
        return apply(original, this, args);
      }
    }.set;
  }

  // A value page script gives a style property map: a CSSStyleValue as it is, unless its CSS
  // text (read with CSSStyleValue's own toString) loads a blocked URL, then that text without
  // it; anything else converted to a string once, as the browser would, without its blocked
  // URLs.
  function styleValueWrite(value) {
    if (value !== null && typeof value === 'object' && captured.styleValueToString !== null) {
      var text = null;
      try { text = apply(captured.styleValueToString, value, []); } catch (e) { text = null; }
      if (typeof text === 'string') {
        var css = sanitizedCSS(text, baseURL(doc));
        return css === null ? value : css;
      }
    }
    var string = '' + value;
    var written = sanitizedCSS(string, baseURL(doc));
    return written === null ? string : written;
  }

  // --- Hyperlink auditing and form submissions (blockInScript) -----------------------------------

  function isElementNamed(node, names) {
    if (node === null || typeof node !== 'object' || captured.nodeNameGet === null) { return false; }
    var name;
    try { name = apply(captured.nodeNameGet, node, []); } catch (e) { return false; }
    return has(names, name);
  }

  var LINKS = ['A', 'AREA'];

  // The browser sends a link's `ping` URLs when it follows the link, after the click event's
  // dispatch: the URLs the resolver blocks are taken out of the attribute for that click, and the
  // attribute is put back after the current task (unless the page changed it meanwhile). They are
  // reported blocked then, unless the page cancelled the click (`event`, when there is one).
  function filterPings(link, event) {
    var ping = attributeOf(link, 'ping');
    if (ping === null || ping === '') { return; }
    var tokens = spaceSeparated(ping);
    var kept = '';
    var dropped = list();
    for (var i = 0; i < tokens.length; i++) {
      var url = absoluteURL(tokens[i], link);
      if (blockedURL(url, 'ping') !== null) {
        dropped[dropped.length] = url;
      } else {
        kept += (kept === '' ? '' : ' ') + tokens[i];
      }
    }
    if (dropped.length === 0) { return; }
    if (kept === '') {
      apply(captured.removeAttribute, link, ['ping']);
    } else {
      apply(captured.setAttribute, link, ['ping', kept]);
    }
    later(function () {
      var now = attributeOf(link, 'ping');
      if (now === (kept === '' ? null : kept)) { apply(captured.setAttribute, link, ['ping', ping]); }
      if (event !== null && captured.defaultPreventedGet !== null && apply(captured.defaultPreventedGet, event, []) === true) { return; }
      for (var j = 0; j < dropped.length; j++) { reportBlocked(dropped[j], 'ping'); }
    });
  }

  // The link a click follows: the first <a> or <area> on its way up from `node`.
  function linkFrom(node) {
    var current = node;
    for (var depth = 0; current !== null && typeof current === 'object' && depth < 64; depth++) {
      if (isElementNamed(current, LINKS)) { return current; }
      current = apply(captured.parentNodeGet, current, []);
    }
    return null;
  }

  function patchPings() {
    if (captured.nodeNameGet === null || captured.removeAttribute === null || captured.parentNodeGet === null ||
      captured.eventTargetGet === null) {
      return;
    }
    // Every click in this document, first of all (window, capture phase); a click event's path
    // is the link's, and a link in a shadow tree is on it too.
    apply(captured.addEventListener, win, ['click', function (event) {
      try {
        var path = captured.composedPath !== null ? apply(captured.composedPath, event, []) : null;
        var link = null;
        if (path !== null && path.length > 0) {
          for (var i = 0; i < path.length && link === null; i++) { if (isElementNamed(path[i], LINKS)) { link = path[i]; } }
        } else {
          link = linkFrom(apply(captured.eventTargetGet, event, []));
        }
        if (link !== null) { filterPings(link, event); }
      } catch (error) { debugLog('ping', error); }
    }, true]);
    // A click of a link outside the document, which the browser still follows: its event never
    // reaches window. click(), and a click event page script dispatches.
    replaceMethod(prototypeOf('HTMLElement'), 'click', function (original) {
      return {
        __proto__: null,
        click() {
          filterDetachedPings(this);
          return apply(original, this, arguments);
        }
      }.click;
    });
    if (captured.eventTypeGet === null) { return; }
    replaceMethod(prototypeOf('EventTarget'), 'dispatchEvent', function (original) {
      return {
        __proto__: null,
        dispatchEvent(event) {
          try {
            if (apply(captured.eventTypeGet, event, []) === 'click') { filterDetachedPings(this); }
          } catch (e) { /* not an event: the browser's call throws */ }
          return apply(original, this, arguments);
        }
      }.dispatchEvent;
    });
  }

  function filterDetachedPings(target) {
    try {
      var link = linkFrom(target);
      if (link !== null && !isConnected(link)) { filterPings(link, null); }
    } catch (error) { debugLog('click', error); }
  }

  function isConnected(node) {
    if (captured.isConnectedGet === null) { return true; }
    try { return apply(captured.isConnectedGet, node, []) === true; } catch (e) { return true; }
  }

  // Whether a submission of `form` (by `submitter`, or null) loads into a frame: its target is
  // this frame (when it is no top frame), a frame of this document by name, or a name no frame
  // of this document has, from a frame. A submission that replaces the top page or opens a window
  // is a navigation, which the resolver never blocks.
  function submitsIntoFrame(form, submitter) {
    var target = submitter !== null ? attributeOf(submitter, 'formtarget') : null;
    if (target === null) { target = attributeOf(form, 'target'); }
    if (target === null && captured.documentQuerySelectorAll !== null) {
      var bases = apply(captured.documentQuerySelectorAll, doc, ['base[target]']);
      if (bases.length > 0) { target = attributeOf(bases[0], 'target'); }
    }
    var name = target === null ? '' : lower(target);
    if (name === '' || name === '_self' || name === '_parent') { return !messages.isTopFrame; }
    if (name === '_top' || name === '_blank') { return false; }
    if (captured.documentQuerySelectorAll !== null) {
      var frames = apply(captured.documentQuerySelectorAll, doc, ['iframe[name],frame[name]']);
      for (var i = 0; i < frames.length; i++) {
        if (attributeOf(frames[i], 'name') === target) { return true; }
      }
    }
    return !messages.isTopFrame;
  }

  // A submission of `form` the resolver blocks (reported), or null.
  function blockedSubmission(form, submitter) {
    if (!isConnected(form) || !submitsIntoFrame(form, submitter)) { return null; }
    var action = submitter !== null && isElementNamed(submitter, ['BUTTON', 'INPUT']) ? attributeOf(submitter, 'formaction') : null;
    if (action === null) { action = attributeOf(form, 'action'); }
    // No action: the form's document.
    var url = action === null || action === '' ? messages.frameURL() : absoluteURL(action, form);
    var result = blockedURL(url, 'subdocument');
    if (result !== null) { reportBlocked(url, 'subdocument'); }
    return result;
  }

  function patchFormSubmission() {
    if (captured.nodeNameGet === null || captured.eventTargetGet === null || captured.preventDefault === null) { return; }
    // A submission by the user or requestSubmit() fires `submit` first, which can cancel it.
    apply(captured.addEventListener, win, ['submit', function (event) {
      try {
        var form = apply(captured.eventTargetGet, event, []);
        if (!isElementNamed(form, ['FORM'])) { return; }
        var submitter = captured.submitterGet !== null ? apply(captured.submitterGet, event, []) : null;
        if (blockedSubmission(form, submitter) !== null) { apply(captured.preventDefault, event, []); }
      } catch (error) { debugLog('submit', error); }
    }, true]);
    // form.submit() fires none.
    replaceMethod(prototypeOf('HTMLFormElement'), 'submit', function (original) {
      return {
        __proto__: null,
        submit() {
          var blocked = null;
          try { blocked = blockedSubmission(this, null); } catch (error) { debugLog('submit', error); }
          if (blocked !== null) { return undefined; }
          return apply(original, this, arguments);
        }
      }.submit;
    });
  }

  // --- Page protections: Global Privacy Control, referrer trimming, tracker scripts' cookies ---

  // Each is the privacy configuration's feature (the `protections` member of the data) with its
  // exceptions, unprotectedTemporary and the user allowlist; the site is the top page's host.

  function withoutFinalDot(host) {
    return host.length > 1 && host[host.length - 1] === '.' ? slice(host, 0, host.length - 1) : host;
  }

  function protects(exceptions, host) {
    return exceptions !== false && !isWithinSet(host, exceptions) && userAllowlist[host] !== true;
  }

  function hostOf(url) {
    var parsed = parseURL(url);
    return parsed === null || parsed.host === '' ? null : withoutFinalDot(parsed.host);
  }

  // A name of one of the data's texts, " name " or " name:value ": the value (or '' without one),
  // undefined when absent.
  function textValue(text, name) {
    if (typeof text !== 'string' || name === '') { return undefined; }
    var found = indexOf(text, ' ' + name + ':');
    if (found >= 0) {
      var start = found + name.length + 2;
      return slice(text, start, indexOf(text, ' ', start));
    }
    return indexOf(text, ' ' + name + ' ') >= 0 ? '' : undefined;
  }

  // The Tracker Radar suffix walk: the host, then each parent that still contains a dot.
  function firstSuffixValue(text, host) {
    var value = textValue(text, host);
    var dot = indexOf(host, '.');
    while (value === undefined && dot >= 0) {
      var next = indexOf(host, '.', dot + 1);
      if (next < 0) { break; }
      value = textValue(text, slice(host, dot + 1));
      dot = next;
    }
    return value;
  }

  var trackerHosts = captured.ObjectCreate(null);
  // Whether the host is a tracker of the tds (any tracker, whatever its rules decide).
  function isTrackerHost(host) {
    var known = trackerHosts[host];
    if (typeof known !== 'boolean') {
      known = firstSuffixValue(protections.trackers, host) !== undefined;
      trackerHosts[host] = known;
    }
    return known;
  }

  // The index of the entity owning the host or its nearest listed parent; -1 for none.
  function entityIndex(host) {
    var value = firstSuffixValue(protections.entities, host);
    return value === undefined || value === '' ? -1 : +value;
  }

  function fullRegistrableDomain(host) {
    return computeRegistrableDomain(host, function (suffix) {
      var kinds = textValue(protections.psl, suffix);
      return kinds === undefined ? undefined : (kinds === '' ? 1 : +kinds);
    });
  }

  // The Swift ReferrerTrimming's test: whether a referrer of `from` would leave its owner for `to`.
  function crossesSites(from, to) {
    var fromEntity = entityIndex(from);
    var cname = protectionCNAMEs[to];
    var trackerHost = typeof cname === 'string' ? cname : to;
    if (isTrackerHost(trackerHost)) {
      var trackerEntity = entityIndex(trackerHost);
      return trackerEntity < 0 || trackerEntity !== fromEntity;
    }
    if (fromEntity >= 0 && fromEntity === entityIndex(to)) { return false; }
    var fromSite = fullRegistrableDomain(from);
    var toSite = fullRegistrableDomain(to);
    return (fromSite === null ? from : fromSite) !== (toSite === null ? to : toSite);
  }

  // ReferrerTrimming.documentReferrer: `document.referrer` in a page at `siteURL`, or in a frame
  // at `frameURL` (null in the top frame) inside it, cut to `scheme://host[:port]/` when it would
  // cross to another site.
  function documentReferrer(referrer, siteURL, frameURL) {
    if (typeof referrer !== 'string' || referrer === '' || referrerExceptions === false) { return referrer; }
    var from = parseURL(referrer);
    var site = hostOf(siteURL);
    var destination = frameURL === null ? site : hostOf(frameURL);
    if (from === null || from.host === '' || site === null || destination === null) { return referrer; }
    var fromHost = withoutFinalDot(from.host);
    if (!protects(referrerExceptions, site) || !protects(referrerExceptions, destination) ||
      !protects(referrerExceptions, fromHost) || !crossesSites(fromHost, destination)) {
      return referrer;
    }
    return from.scheme + '://' + from.host + (from.port === null ? '' : ':' + from.port) + '/';
  }

  // An accessor with the shape of a WebIDL attribute (a getter named `get <name>`, no setter,
  // enumerable and configurable), defined on a prototype of the page.
  function defineGetter(prototype, name, get) {
    captured.ObjectDefineProperty(prototype, name, {
      __proto__: null, get: get, set: undefined, enumerable: true, configurable: true
    });
  }

  // GlobalPrivacyControl.javaScriptValue: navigator.globalPrivacyControl on Navigator.prototype,
  // the user's setting, where the gpc feature applies to the top page's site; absent elsewhere.
  function installGlobalPrivacyControl() {
    if (gpcExceptions === false || captured.NavigatorPrototype === null) { return; }
    var site = hostOf(messages.topURL());
    if (site === null || !protects(gpcExceptions, site)) { return; }
    var value = !(settings !== null && typeof settings === 'object' && settings.gpc === false);
    var accessors = { __proto__: null, get globalPrivacyControl() { return value; } };
    defineGetter(captured.NavigatorPrototype, 'globalPrivacyControl',
      captured.ObjectGetOwnPropertyDescriptor(accessors, 'globalPrivacyControl').get);
  }

  // document.referrer of this document, trimmed; other documents keep the browser's.
  function installReferrerTrimming() {
    if (referrerExceptions === false || captured.referrerGet === null || captured.DocumentPrototype === null) { return; }
    var original = captured.referrerGet;
    var referrer = apply(original, doc, []);
    var trimmed = documentReferrer(referrer, messages.topURL(), messages.isTopFrame ? null : messages.frameURL());
    if (trimmed === referrer) { return; }
    var accessors = { __proto__: null, get referrer() { return this === doc ? trimmed : apply(original, this, []); } };
    defineGetter(captured.DocumentPrototype, 'referrer', captured.ObjectGetOwnPropertyDescriptor(accessors, 'referrer').get);
  }

  // --- document.cookie: the cap on the first-party cookies of tracker scripts -----------------

  // The Swift FirstPartyCookiePolicy: a cookie whose lifetime exceeds the threshold, written by a
  // tracker script (a script of the stack whose host, or its CNAME target, is a tracker of the
  // tds, outside the excluded cookie domains), is written with Max-Age=maxAge instead.

  function trimmed(text) {
    var start = 0;
    var end = text.length;
    while (start < end && (text[start] === ' ' || text[start] === '\t')) { start += 1; }
    while (end > start && (text[end - 1] === ' ' || text[end - 1] === '\t')) { end -= 1; }
    return slice(text, start, end);
  }

  // The cookie's `;`-separated pieces, without String.prototype.split.
  function cookiePieces(text) {
    var pieces = list();
    var start = 0;
    for (;;) {
      var semicolon = indexOf(text, ';', start);
      if (semicolon < 0) {
        pieces[pieces.length] = slice(text, start);
        return pieces;
      }
      pieces[pieces.length] = slice(text, start, semicolon);
      start = semicolon + 1;
    }
  }

  function attributeName(piece) {
    var equals = indexOf(piece, '=');
    return lower(trimmed(equals < 0 ? piece : slice(piece, 0, equals)));
  }

  function attributeValue(piece) {
    var equals = indexOf(piece, '=');
    return equals < 0 ? '' : trimmed(slice(piece, equals + 1));
  }

  function isDelimiter(c) {
    return c === '\t' || (c >= ' ' && c <= '/') || (c >= ';' && c <= '@') || (c >= '[' && c <= '`') || (c >= '{' && c <= '~');
  }

  // The number of the leading digits of `token` from `start` when there are min … max of them.
  function leadingNumber(token, start, min, max) {
    var end = start;
    while (end < token.length && isDigit(token[end])) { end += 1; }
    return end - start >= min && end - start <= max ? +slice(token, start, end) : null;
  }

  function cookieTime(token) {
    var values = list();
    var index = 0;
    for (var part = 0; part < 3; part++) {
      var start = index;
      while (index < token.length && isDigit(token[index])) { index += 1; }
      if (index - start < 1 || index - start > 2) { return null; }
      values[part] = +slice(token, start, index);
      if (part < 2) {
        if (token[index] !== ':') { return null; }
        index += 1;
      }
    }
    return values;
  }

  var MONTHS = 'jan feb mar apr may jun jul aug sep oct nov dec';
  function cookieMonth(token) {
    if (token.length < 3) { return null; }
    var name = lower(slice(token, 0, 3));
    var found = indexOf(MONTHS, name);
    return found >= 0 && found % 4 === 0 && indexOf(name, ' ') < 0 ? found / 4 + 1 : null;
  }

  // An RFC 6265 cookie-date (section 5.1.1) as seconds since 1970, or null.
  function cookieDate(text) {
    var time = null;
    var day = null;
    var month = null;
    var year = null;
    var index = 0;
    while (index < text.length) {
      while (index < text.length && isDelimiter(text[index])) { index += 1; }
      var start = index;
      while (index < text.length && !isDelimiter(text[index])) { index += 1; }
      if (start === index) { continue; }
      var token = slice(text, start, index);
      var value;
      if (time === null && (value = cookieTime(token)) !== null) {
        time = value;
      } else if (day === null && (value = leadingNumber(token, 0, 1, 2)) !== null) {
        day = value;
      } else if (month === null && (value = cookieMonth(token)) !== null) {
        month = value;
      } else if (year === null && (value = leadingNumber(token, 0, 2, 4)) !== null) {
        year = value;
      }
    }
    if (time === null || day === null || month === null || year === null) { return null; }
    if (year >= 70 && year <= 99) { year += 1900; } else if (year >= 0 && year <= 69) { year += 2000; }
    var leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
    var days = month === 2 ? (leap ? 29 : 28) : (month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31);
    if (year < 1601 || day < 1 || day > days || time[0] > 23 || time[1] > 59 || time[2] > 59) { return null; }
    // Days from 1970-01-01 (proleptic Gregorian calendar).
    var y = month <= 2 ? year - 1 : year;
    var era = captured.MathFloor(y / 400);
    var yearOfEra = y - era * 400;
    var dayOfYear = captured.MathFloor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
    var dayOfEra = yearOfEra * 365 + captured.MathFloor(yearOfEra / 4) - captured.MathFloor(yearOfEra / 100) + dayOfYear;
    return (era * 146097 + dayOfEra - 719468) * 86400 + time[0] * 3600 + time[1] * 60 + time[2];
  }

  // DocumentCookie.lifetime: seconds from `now` until the cookie expires; null for a session
  // cookie. Max-Age (digits, an optional leading "-") wins over Expires; the last usable one counts.
  function cookieLifetime(pieces, now) {
    var maxAge = null;
    var expires = null;
    for (var i = 1; i < pieces.length; i++) {
      var name = attributeName(pieces[i]);
      var value = attributeValue(pieces[i]);
      if (name === 'max-age') {
        var negative = value.length > 0 && value[0] === '-';
        var digits = negative ? slice(value, 1) : value;
        if (digits.length > 0 && leadingNumber(digits, 0, digits.length, digits.length) !== null) {
          maxAge = negative ? -digits : +digits;
        }
      } else if (name === 'expires') {
        var date = cookieDate(value);
        if (date !== null) { expires = date; }
      }
    }
    if (maxAge !== null) { return maxAge > 0 ? maxAge : 0; }
    return expires === null ? null : expires - now;
  }

  // DocumentCookie.withMaxAge.
  function withMaxAge(pieces, seconds) {
    var text = pieces[0];
    for (var i = 1; i < pieces.length; i++) {
      var name = attributeName(pieces[i]);
      if (name !== 'expires' && name !== 'max-age') { text += ';' + pieces[i]; }
    }
    return text + '; Max-Age=' + seconds;
  }

  var STACK_URL = new captured.RegExp('(https?://[^\\s()]+):[0-9]+:[0-9]+', 'g');
  var cookieScripts = captured.ObjectCreate(null);

  function isTrackerScriptHost(host) {
    var known = cookieScripts[host];
    if (typeof known !== 'boolean') {
      var cname = protectionCNAMEs[host];
      known = (isTrackerHost(host) || (typeof cname === 'string' && isTrackerHost(cname))) &&
        !isWithinAny(host, cookiePolicy.excluded);
      cookieScripts[host] = known;
    }
    return known;
  }

  // Whether a script of the current stack is a tracker script: the engine's own stack trace,
  // which page script cannot rewrite (a stack trace limit the page lowered is raised for it, and
  // V8's Error.prepareStackTrace, which could write any stack, is put aside for it).
  function writtenByTrackerScript() {
    var ErrorConstructor = captured.Error;
    var limit = ErrorConstructor.stackTraceLimit;
    var prepare = ErrorConstructor.prepareStackTrace;
    var stack;
    try {
      try { ErrorConstructor.stackTraceLimit = 100; } catch (e) { /* a limit the page froze */ }
      if (prepare !== undefined) {
        try { ErrorConstructor.prepareStackTrace = undefined; } catch (e) { /* as above */ }
      }
      stack = new ErrorConstructor().stack;
    } finally {
      try { ErrorConstructor.stackTraceLimit = limit; } catch (e) { /* as above */ }
      if (prepare !== undefined) {
        try { ErrorConstructor.prepareStackTrace = prepare; } catch (e) { /* as above */ }
      }
    }
    if (typeof stack !== 'string') { return false; }
    STACK_URL.lastIndex = 0;
    var match;
    while ((match = apply(captured.regExpExec, STACK_URL, [stack])) !== null) {
      var host = hostOf(match[1]);
      if (host !== null && isTrackerScriptHost(host)) { return true; }
    }
    return false;
  }

  function cappedCookie(text) {
    var pieces = cookiePieces(text);
    var lifetime = cookieLifetime(pieces, captured.DateNow() / 1000);
    if (lifetime === null || lifetime <= cookiePolicy.threshold || !writtenByTrackerScript()) { return text; }
    return withMaxAge(pieces, cookiePolicy.maxAge);
  }

  // document.cookie's setter, where the cookie feature applies to the top page's site.
  function installCookiePolicy() {
    if (cookiePolicy === null || captured.cookieSet === null || captured.DocumentPrototype === null) { return; }
    var site = hostOf(messages.topURL());
    if (site === null || !protects(cookiePolicy.exceptions, site)) { return; }
    var originalSet = captured.cookieSet;
    var accessors = {
      __proto__: null,
      // Every document's: a same-origin frame's setter (another realm's, with this script in it
      // too) called on this document must cap as this document's own does.
      set cookie(value) {
        var text = value;
        if (typeof value !== 'symbol') {
          // Converted once, here, as the browser's setter would.
          text = captured.String(value);
          try { text = cappedCookie(text); } catch (error) { debugLog('cookie', error); }
        }
        return apply(originalSet, this, [text]);
      }
    };
    captured.ObjectDefineProperty(captured.DocumentPrototype, 'cookie', {
      __proto__: null,
      get: captured.cookieGet === null ? undefined : captured.cookieGet,
      set: captured.ObjectGetOwnPropertyDescriptor(accessors, 'cookie').set,
      enumerable: true,
      configurable: true
    });
  }

  // --- Start ---------------------------------------------------------------------------------

  // For Node tests only: a global function __trackerlessTestHook present at start receives the
  // internal API. decide(requestURL, siteURL, type) returns null for a URL that does not parse,
  // else {action: 'block'|'ignore'|'redirect'|null, reason, surrogate?, tracker?, owner?} with
  // the Swift TrackerResolver's reason strings.
  var api = {
    __proto__: null,
    decide: decide,
    registrableDomain: registrableDomain,
    parseURL: parseURL,
    parseWithURL: parseWithURL,
    quickParse: quickParse,
    topURL: messages.topURL,
    runSurrogate: runSurrogate,
    // Whether rule `index` of tracker `key` matches the URL, as a decision matches it; null when
    // the tracker has no such rule.
    ruleMatches: function (key, index, url) {
      var rules = rulesOf(key);
      return index < rules.length ? ruleMatches(key, index, rules[index], url) : null;
    },
    // A rule program (RuleProgram.swift) as a function of a URL: whether it matches.
    ruleProgram: function (text) {
      var program = ruleProgram(text);
      return function (url) { return program !== null && programMatches(program, url); };
    },
    flush: function () { messages.send(); }
  };
  try {
    if (typeof __trackerlessTestHook === 'function') { __trackerlessTestHook(api); }
  } catch (e) { /* only tests define the hook */ }

  if (doc === null) { return; }
  // Before any page script: a page must find these as if the browser had them.
  try { installGlobalPrivacyControl(); } catch (error) { debugLog('globalPrivacyControl', error); }
  try { installReferrerTrimming(); } catch (error) { debugLog('referrer', error); }
  try { installCookiePolicy(); } catch (error) { debugLog('cookie', error); }
  try { observeScripts(); } catch (error) { debugLog('observer', error); }
  // In every mode: the wrappers report what page script requests, and block only with blockInScript.
  try { patchSource('HTMLScriptElement', 'script'); } catch (error) { debugLog('script src', error); }
  try { patchSource('HTMLImageElement', 'image'); } catch (error) { debugLog('img src', error); }
  try { patchSource('HTMLIFrameElement', 'subdocument'); } catch (error) { debugLog('iframe src', error); }
  try { patchSetAttribute(); } catch (error) { debugLog('setAttribute', error); }
  try { patchFetch(); } catch (error) { debugLog('fetch', error); }
  try { patchXMLHttpRequest(); } catch (error) { debugLog('XMLHttpRequest', error); }
  try { patchSendBeacon(); } catch (error) { debugLog('sendBeacon', error); }
  try { wrapConstructor('WebSocket', 'websocket', blockedWebSocket); } catch (error) { debugLog('WebSocket', error); }
  try { wrapConstructor('EventSource', 'xmlhttprequest', blockedEventSource); } catch (error) { debugLog('EventSource', error); }
  try { wrapConstructor('Worker', 'script', blockedWorker); } catch (error) { debugLog('Worker', error); }
  try { wrapConstructor('SharedWorker', 'script', blockedWorker); } catch (error) { debugLog('SharedWorker', error); }
  try { patchServiceWorkerRegister(); } catch (error) { debugLog('serviceWorker', error); }
  try { patchWorkletAddModule(); } catch (error) { debugLog('Worklet', error); }
  if (BLOCK_IN_SCRIPT) {
    // Loads no wrapper of a request sees, which only a script that blocks must stop: the parser's
    // for markup of page script, pings, form submissions into frames.
    try { patchMarkupSinks(); } catch (error) { debugLog('markup', error); }
    try { patchURLProperties(); } catch (error) { debugLog('URL properties', error); }
    try { patchAttributeNodes(); } catch (error) { debugLog('attribute nodes', error); }
    try { patchText(); } catch (error) { debugLog('text', error); }
    try { patchStyleRanges(); } catch (error) { debugLog('ranges', error); }
    try { patchStyles(); } catch (error) { debugLog('styles', error); }
    try { patchPings(); } catch (error) { debugLog('ping', error); }
    try { patchFormSubmission(); } catch (error) { debugLog('form', error); }
  }
  try {
    if (captured.customEventDetail !== null) {
      apply(captured.addEventListener, win, ['trackerless-click-to-load', function (event) {
        try { hostAnswered(event); } catch (error) { debugLog('click to load', error); }
      }, true]);
    }
  } catch (error) { debugLog('click to load', error); }
})((function () {
  'use strict';
  // The surrogates are defined here, outside the blocking script's function, so that a
  // surrogate's code can name none of its variables: not the secret, the bridge or the
  // captured built-ins.
  return $SURROGATES$;
})());
