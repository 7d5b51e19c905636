'use strict';
// Just enough of a DOM for blocking.js: elements with attributes, children and events, a
// MutationObserver that delivers childList and attribute records in a microtask, the element
// classes whose `src` setter the blocking script wraps, Image, fetch and Request, XMLHttpRequest and sendBeacon;
// replaceChild, textContent and CustomEvent for the Click-to-Load placeholders (an event's
// `isTrusted` is false unless a test sets it, as a user's click would have it).
// Everything the page did is recorded in `log`.

function createFakeDOM(baseURL) {
  const log = { fetches: [], xhrSends: [], beacons: [], sources: [] };
  const observers = [];

  function notify(record) {
    for (const observer of observers) {
      if (!observer.options) { continue; }
      if (record.type === 'attributes' && !observer.options.attributes) { continue; }
      observer.records.push(record);
      if (!observer.scheduled) {
        observer.scheduled = true;
        queueMicrotask(() => {
          observer.scheduled = false;
          const records = observer.records;
          observer.records = [];
          if (records.length > 0) { observer.callback(records, observer); }
        });
      }
    }
  }

  class Event {
    constructor(type) {
      this.type = type;
      this.target = null;
      this.immediateStopped = false;
      this.isTrusted = false;
    }
    stopImmediatePropagation() { this.immediateStopped = true; }
  }

  class CustomEvent extends Event {
    constructor(type, init) {
      super(type);
      Object.defineProperty(this, '_detail', { value: init ? init.detail : null });
    }
    get detail() { return this._detail; }
  }

  class EventTarget {
    addEventListener(type, listener, capture) {
      if (!this._listeners) { Object.defineProperty(this, '_listeners', { value: [] }); }
      this._listeners.push({ type, listener, capture: capture === true });
    }
    // Capture listeners at the target run first (as browsers do since 2021), then the others and
    // the `on<type>` handler.
    dispatchEvent(event) {
      event.target = this;
      const listeners = (this._listeners || []).filter((entry) => entry.type === event.type);
      const ordered = listeners.filter((entry) => entry.capture).concat(listeners.filter((entry) => !entry.capture));
      for (const entry of ordered) {
        if (event.immediateStopped) { return true; }
        entry.listener.call(this, event);
      }
      const handler = this['on' + event.type];
      if (!event.immediateStopped && typeof handler === 'function') { handler.call(this, event); }
      return true;
    }
  }

  class Node extends EventTarget {
    constructor() {
      super();
      this.childNodes = [];
      this.parentNode = null;
    }
    get parentNode() { return this._parentNode; }
    set parentNode(value) { Object.defineProperty(this, '_parentNode', { value, writable: true, configurable: true }); }
    get textContent() { return this.childNodes.map((child) => child.textContent).join(''); }
    set textContent(value) {
      const text = new Node();
      Object.defineProperty(text, 'textContent', { value: String(value) });
      text.nodeType = 3;
      text.parentNode = this;
      this.childNodes = [text];
    }
    appendChild(child) {
      child.parentNode = this;
      this.childNodes.push(child);
      notify({ type: 'childList', target: this, addedNodes: [child], removedNodes: [] });
      return child;
    }
    replaceChild(newChild, oldChild) {
      const index = this.childNodes.indexOf(oldChild);
      if (index < 0) { throw new Error('fake DOM: not a child'); }
      this.childNodes[index] = newChild;
      newChild.parentNode = this;
      oldChild.parentNode = null;
      notify({ type: 'childList', target: this, addedNodes: [newChild], removedNodes: [oldChild] });
      return oldChild;
    }
  }

  class Element extends Node {
    constructor(name) {
      super();
      this.nodeType = 1;
      this.nodeName = name.toUpperCase();
      this.attributes = {};
    }
    getAttribute(name) { return Object.prototype.hasOwnProperty.call(this.attributes, name) ? this.attributes[name] : null; }
    setAttribute(name, value) {
      this.attributes[name] = String(value);
      if (name === 'src') { log.sources.push({ element: this.nodeName, url: String(value) }); }
      notify({ type: 'attributes', target: this, attributeName: name, addedNodes: [], removedNodes: [] });
    }
    querySelectorAll(selector) {
      const match = /^(script|iframe)\[src\]$/.exec(selector);
      if (match === null) { throw new Error(`fake DOM: unsupported selector ${selector}`); }
      const name = match[1].toUpperCase();
      const found = [];
      const walk = (node) => {
        for (const child of node.childNodes) {
          if (child.nodeName === name && child.getAttribute && child.getAttribute('src') !== null) { found.push(child); }
          walk(child);
        }
      };
      walk(this);
      return found;
    }
  }

  // A native src setter does not go through the page-visible setAttribute.
  const setAttribute = Element.prototype.setAttribute;
  function withSource(name) {
    return class extends Element {
      constructor() { super(name); }
      get src() { return this.getAttribute('src') || ''; }
      set src(value) { setAttribute.call(this, 'src', value); }
    };
  }
  const HTMLScriptElement = withSource('script');
  const HTMLImageElement = withSource('img');
  const HTMLIFrameElement = withSource('iframe');
  const classes = { script: HTMLScriptElement, img: HTMLImageElement, iframe: HTMLIFrameElement };

  class Document extends Node {
    constructor() {
      super();
      this.nodeType = 9;
      this.nodeName = '#document';
      this.referrer = '';
      this.documentElement = new Element('html');
      this.childNodes.push(this.documentElement);
      this.documentElement.parentNode = this;
      this.head = new Element('head');
      this.documentElement.childNodes.push(this.head);
    }
    // The browser's state; a test plays the browser by setting `hiddenByBrowser`.
    get visibilityState() { return this.hiddenByBrowser === true ? 'hidden' : 'visible'; }
    createElement(name) {
      const Class = classes[name.toLowerCase()];
      return Class ? new Class() : new Element(name);
    }
  }

  class MutationObserver {
    constructor(callback) {
      this.callback = callback;
      this.records = [];
      this.options = null;
      this.scheduled = false;
      observers.push(this);
    }
    observe(target, options) { this.options = options; }
    disconnect() { this.options = null; }
  }

  class XMLHttpRequest extends EventTarget {
    open(method, url) { this.url = url; }
    send() { log.xhrSends.push(this.url); }
  }

  // `new Image()` makes an img element (Image.prototype is HTMLImageElement.prototype).
  function Image() { return new HTMLImageElement(); }
  Image.prototype = HTMLImageElement.prototype;

  class Request {
    constructor(url) { this.url = String(url); }
  }

  const document = new Document();
  const globals = {
    document, Event, CustomEvent, EventTarget, Node, Element, Document, MutationObserver, HTMLScriptElement, HTMLImageElement,
    HTMLIFrameElement, XMLHttpRequest, Image, Request,
    location: { href: baseURL },
    navigator: { sendBeacon(url) { log.beacons.push(url); return true; } },
    fetch(input) { log.fetches.push(input instanceof Request ? input.url : String(input)); return Promise.resolve({ ok: true }); }
  };
  // What the HTML parser does: it sets attributes without any page-visible setter, so the
  // blocking script's wrappers never see it (only its MutationObserver does).
  function parserSetAttribute(element, name, value) { setAttribute.call(element, name, value); }
  return { globals, document, log, parserSetAttribute };
}

module.exports = { createFakeDOM };
