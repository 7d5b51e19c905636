'use strict';
// A page for inference.js in a vm context: just enough DOM, timeline and timers for the script,
// with a clock the test advances, and the host's side of each bridge recording what it receives.

const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');
const nodeCrypto = require('node:crypto');

const repoRoot = path.resolve(__dirname, '..', '..', '..');
const templatesDir = path.join(repoRoot, 'JSTemplates');
const SECRET = '0123456789abcdef0123456789abcdef';

function readTemplate(name) {
  return fs.readFileSync(path.join(templatesDir, name), 'utf8');
}

// The test-side filler: placeholders replaced by kind, as the renderer does.
function fillInference({ settings = {}, secret = SECRET, bridge = 'webkit' } = {}) {
  const values = {
    SETTINGS: JSON.stringify(settings),
    SECRET: JSON.stringify(secret),
    BRIDGE: readTemplate(path.join('bridges', bridge + '.js')).trim(),
    MESSAGE_QUEUE: readTemplate(path.join('parts', 'message-queue.js')).trim()
  };
  const filled = readTemplate('inference.js').replace(/\$([A-Z_]+)\$/g, (whole, name) => {
    if (!(name in values)) { throw new Error('unknown placeholder ' + whole); }
    return values[name];
  });
  return filled;
}

class FakeEventTarget {
  addEventListener(type, listener, options) {
    const capture = options === true || (options !== null && typeof options === 'object' && options.capture === true);
    listenersOf(this).push({ type, listener, capture });
  }
}

const listenerTables = new WeakMap();
function listenersOf(target) {
  let list = listenerTables.get(target);
  if (list === undefined) {
    list = [];
    listenerTables.set(target, list);
  }
  return list;
}

function callListeners(target, event, capture) {
  for (const entry of listenersOf(target).slice()) {
    if (entry.type === event.type && entry.capture === capture) { Reflect.apply(entry.listener, target, [event]); }
  }
}

const selectorPattern = /^([a-z]+)\[([a-z]+)\]$/;

// What the DOM keeps inside a node, out of the page's reach: its parent, its tag, what a media
// element chose and can play. A getter called on anything else throws, as a browser's does.
const internals = new WeakMap();
function internal(node, attribute) {
  const slots = internals.get(node);
  if (slots === undefined) { throw new TypeError(`The ${attribute} getter can only be used on instances of its interface`); }
  return slots;
}

// Node, Element, HTMLMediaElement and HTMLSourceElement keep their attributes as getters on
// their prototypes, as a browser does, so that a page can redefine them there.
// Each page has its own classes, so that what one test's page redefines stays in that page.
function domClasses() {
  class FakeNode extends FakeEventTarget {
    constructor() {
      super();
      internals.set(this, { parent: null });
    }
    get parentNode() { return internal(this, 'parentNode').parent; }
  }

  class FakeElement extends FakeNode {
    constructor(page, tag, attributes = {}) {
      super();
      internal(this).tag = tag.toUpperCase();
      this.page = page;
      this.nodeType = 1;
      this.localName = tag.toLowerCase();
      this.attributes = Object.assign({}, attributes);
      this.children = [];
    }
    get tagName() { return internal(this, 'tagName').tag; }
    getAttribute(name) {
      return Object.prototype.hasOwnProperty.call(this.attributes, name) ? this.attributes[name] : null;
    }
    setAttribute(name, value) {
      this.attributes[name] = String(value);
      this.page.mutated([{ type: 'attributes', target: this, attributeName: name, addedNodes: [] }]);
    }
    resolved(name) {
      const value = this.getAttribute(name);
      if (value === null) { return ''; }
      try { return new URL(value, this.page.location.href).href; } catch (e) { return value; }
    }
    get src() { return this.resolved('src'); }
    get href() { return this.resolved('href'); }
    get data() { return this.resolved('data'); }
    get currentSrc() { return this.resolved('src'); }
    get firstElementChild() { return this.children.length > 0 ? this.children[0] : null; }
    appendChild(child) {
      internal(child).parent = this;
      this.children.push(child);
      this.page.mutated([{ type: 'childList', target: this, addedNodes: [child] }]);
      return child;
    }
    querySelectorAll(selectors) {
      const tests = selectors.split(',').map((selector) => {
        const match = selectorPattern.exec(selector.trim());
        if (match === null) { throw new Error('fake querySelectorAll: unsupported selector ' + selector); }
        // As a browser does, without calling the element's own (possibly hostile) getters.
        return (element) => element.localName === match[1] &&
          Object.prototype.hasOwnProperty.call(element.attributes, match[2]);
      });
      const found = [];
      const walk = (element) => {
        for (const child of element.children) {
          if (tests.some((test) => test(child))) { found.push(child); }
          walk(child);
        }
      };
      walk(this);
      return found;
    }
  }

  // <video>, <audio>: `play(types)` sets the types it can play, `choose(url)` the source it chose.
  class FakeMediaElement extends FakeElement {
    constructor(page, tag, attributes) {
      super(page, tag, attributes);
      internal(this).playable = [];
      internal(this).chosen = null;
    }
    get currentSrc() {
      const chosen = internal(this, 'currentSrc').chosen;
      return chosen !== null ? chosen : this.resolved('src');
    }
    canPlayType(type) {
      return internal(this, 'canPlayType').playable.includes(String(type)) ? 'maybe' : '';
    }
    play(types) { internal(this).playable = types.slice(); }
    choose(url) { internal(this).chosen = url; }
  }

  class FakeSourceElement extends FakeElement {
    get src() { internal(this, 'src'); return this.resolved('src'); }
  }

  const elementClasses = { video: FakeMediaElement, audio: FakeMediaElement, source: FakeSourceElement };

  class FakeDocument extends FakeNode {
    constructor(page, referrer) {
      super();
      this.nodeType = 9;
      this.visibilityState = 'visible';
      this.referrer = referrer;
      this.documentElement = new FakeElement(page, 'html');
      internal(this.documentElement).parent = this;
    }
    querySelectorAll(selectors) {
      return this.documentElement.querySelectorAll(selectors);
    }
  }
  return { FakeNode, FakeElement, FakeMediaElement, FakeSourceElement, FakeDocument, elementClasses };
}

// options: url, bridge, settings, secret, frame: { top: 'https://…' | 'cross-origin', ancestorOrigins: [...] },
// referrer, handler: false to leave the host's channel out, crypto: false.
function createPage(options = {}) {
  const bridge = options.bridge || 'webkit';
  const { FakeNode, FakeElement, FakeMediaElement, FakeSourceElement, FakeDocument, elementClasses } = domClasses();
  const handlerName = (options.settings && options.settings.handler) || 'trackerless';
  const page = {
    now: 0,
    timers: [],
    nextTimer: 1,
    received: [],
    performanceObservers: [],
    mutationObservers: [],
    location: { href: options.url || 'https://site.example/' }
  };
  const frame = options.frame || null;
  if (frame && frame.ancestorOrigins) { page.location.ancestorOrigins = frame.ancestorOrigins.slice(); }
  page.mutated = (records) => {
    for (const observer of page.mutationObservers) { Reflect.apply(observer.callback, observer, [records, observer]); }
  };

  const sandbox = {};
  sandbox.window = sandbox;
  sandbox.self = sandbox;
  sandbox.location = page.location;
  if (frame === null) {
    sandbox.top = sandbox;
  } else if (frame.top === 'cross-origin') {
    sandbox.top = { get location() { throw new Error('SecurityError: cross-origin frame'); } };
  } else if (typeof frame.top === 'string') {
    sandbox.top = { location: { href: frame.top } };
  } else {
    sandbox.top = { get location() { throw new Error('SecurityError: cross-origin frame'); } };
  }
  page.warnings = [];
  sandbox.console = { warn: (...args) => { page.warnings.push(args); } };
  sandbox.EventTarget = FakeEventTarget;
  sandbox.Node = FakeNode;
  sandbox.Element = FakeElement;
  sandbox.HTMLMediaElement = FakeMediaElement;
  sandbox.HTMLSourceElement = FakeSourceElement;
  sandbox.Document = FakeDocument;
  sandbox.document = new FakeDocument(page, options.referrer || '');
  sandbox.addEventListener = FakeEventTarget.prototype.addEventListener;
  if (options.crypto !== false) {
    sandbox.crypto = { getRandomValues: (array) => nodeCrypto.getRandomValues(array) };
    sandbox.Uint8Array = Uint8Array;
  }
  sandbox.performance = { now: () => page.now };
  sandbox.setTimeout = (callback, delay) => {
    const id = page.nextTimer++;
    page.timers.push({ id, at: page.now + Math.max(0, Number(delay) || 0), callback });
    return id;
  };
  sandbox.clearTimeout = (id) => {
    page.timers = page.timers.filter((timer) => timer.id !== id);
  };
  sandbox.PerformanceObserver = class {
    constructor(callback) { this.callback = callback; }
    observe(init) {
      if (init.type !== 'resource') { throw new Error('unexpected entry type ' + init.type); }
      page.performanceObservers.push(this);
    }
  };
  sandbox.MutationObserver = class {
    constructor(callback) { this.callback = callback; }
    observe(target, init) {
      if (!init.childList || !init.subtree) { throw new Error('observe without childList + subtree'); }
      page.mutationObservers.push(this);
    }
  };

  const receive = (message) => {
    page.received.push({ at: page.now, raw: message });
  };
  if (options.handler !== false) {
    if (bridge === 'webkit') {
      sandbox.webkit = { messageHandlers: { [handlerName]: { postMessage: receive } } };
    } else if (bridge === 'android') {
      sandbox[handlerName] = { postMessage: receive };
    } else if (bridge === 'webview2') {
      sandbox.chrome = { webview: { postMessage: receive } };
    }
  }

  const context = vm.createContext(sandbox);
  page.sandbox = sandbox;
  // Inside the context the global is a proxy of the sandbox, not the sandbox itself: listeners
  // added to `window` are added to it.
  page.global = vm.runInContext('this', context);
  page.document = sandbox.document;
  page.source = fillInference({ settings: options.settings || {}, secret: options.secret || SECRET, bridge });
  page.run = (code) => vm.runInContext(code, context);
  page.start = () => {
    page.run(page.source);
    return page;
  };

  // The host's view of each received message: the object WebKit/WebView2 would serialize, or
  // the string Android receives, parsed.
  page.messages = () => page.received.map((entry) => {
    if (bridge === 'android') {
      if (typeof entry.raw !== 'string') { throw new Error('android bridge posted a non-string'); }
      return JSON.parse(entry.raw);
    }
    if (entry.raw === null || typeof entry.raw !== 'object') { throw new Error(bridge + ' bridge posted a non-object'); }
    return JSON.parse(JSON.stringify(entry.raw));
  });
  page.events = () => page.messages().flatMap((message) => message.events);

  page.advance = (ms) => {
    const end = page.now + ms;
    for (;;) {
      page.timers.sort((a, b) => a.at - b.at || a.id - b.id);
      const next = page.timers[0];
      if (next === undefined || next.at > end) { break; }
      page.timers.shift();
      page.now = next.at;
      Reflect.apply(next.callback, undefined, []);
    }
    page.now = end;
  };

  page.element = (tag, attributes) => new (elementClasses[tag] || FakeElement)(page, tag, attributes);
  page.append = (tag, attributes, parent) => (parent || page.document.documentElement).appendChild(page.element(tag, attributes));
  // `trusted: false` models a synthetic event (dispatchEvent): isTrusted is false.
  page.fire = (target, type, trusted = true) => {
    const event = { type, target, isTrusted: trusted };
    callListeners(page.global, event, true);
    callListeners(page.document, event, true);
    callListeners(target, event, false);
  };
  page.fireWindow = (type, extra) => {
    const event = Object.assign({ type, target: page.global }, extra || {});
    callListeners(page.global, event, true);
    callListeners(page.global, event, false);
  };
  page.hide = () => {
    page.document.visibilityState = 'hidden';
    const event = { type: 'visibilitychange', target: page.document };
    callListeners(page.global, event, true);
    callListeners(page.document, event, true);
    callListeners(page.document, event, false);
  };
  page.entries = (entries) => {
    const list = { getEntries: () => entries.map((entry) => Object.assign({ transferSize: 300, encodedBodySize: 0, decodedBodySize: 0, responseStart: 0 }, entry)) };
    for (const observer of page.performanceObservers) { Reflect.apply(observer.callback, observer, [list, observer]); }
  };
  return page;
}

module.exports = { createPage, fillInference, readTemplate, repoRoot, SECRET };
