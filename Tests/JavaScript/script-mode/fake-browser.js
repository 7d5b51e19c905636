'use strict';
// A page for blocking.js in script mode (blockInScript): the resolver tests' fake DOM
// (../resolver/fake-dom.js) grown into just enough of a browser for the loads that no wrapper of
// fetch or XHR sees. What the browser would send is recorded in `network` ({url, type}), resolved
// as the browser resolves it (against the document's base URL, a `<base href>` included):
//
// - `<base href>`, through Node.prototype.baseURI;
// - WebSocket, EventSource, Worker, SharedWorker, navigator.serviceWorker.register and
//   audioWorklet.addModule (a `data:` URL reaches no network: an EventSource of one that is no
//   event stream fails, a worker of a script that does not parse fires `error`);
// - a small HTML parser for document.write, innerHTML, outerHTML, insertAdjacentHTML,
//   setHTMLUnsafe, createContextualFragment and iframe.srcdoc: the elements it makes in the
//   page's document load their URLs as a browser's would (scripts only where they run), and in
//   an inert document (createHTMLDocument, a template's content, DOMParser) load nothing;
// - the elements that load other URLs and the styles of fake-elements.js;
// - events along their path (window and document, capture then bubble, composedPath), links
//   that send their `ping` URLs when followed (click(), or a click event dispatched at them, even
//   outside the document, as WebKit does), and forms (submit(), requestSubmit() after a cancelable `submit` event).

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const vm = require('node:vm');
const helpers = require('../resolver/helpers.js');
const { createFakeDOM } = require('../resolver/fake-dom.js');
const { install: installElements } = require('./fake-elements.js');

const VOID = new Set(['img', 'source', 'input', 'link', 'meta', 'base', 'br', 'hr', 'embed', 'track', 'area', 'col', 'wbr', 'param']);
const TOKEN = /<!--[\s\S]*?-->|<!doctype([^>]*)>|<\/([a-zA-Z][^\s>]*)\s*>|<([a-zA-Z][^\s/>]*)((?:\s+[^\s"'>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+))?)*)\s*\/?>|[^<]+|</gi;
const ATTRIBUTE = /([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g;
const decode = (text) => text.replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
const encode = (text) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;');

// A page at `url` with the fake browser. Returns {dom, page, global, network, run(code)}.
function createBrowser(url) {
  const dom = createFakeDOM(url);
  const network = [];
  const g = dom.globals;
  const { Node, Element, EventTarget, Event, Document } = g;
  const setAttribute = Element.prototype.setAttribute;

  // --- Accessors a browser has on its prototypes (blocking.js captures them) ------------------
  const slot = (name) => ({
    get() { return this['__' + name]; },
    set(value) { Object.defineProperty(this, '__' + name, { value, writable: true, configurable: true }); },
    enumerable: true, configurable: true
  });
  Object.defineProperty(Node.prototype, 'nodeName', slot('nodeName'));
  Object.defineProperty(Node.prototype, 'nodeType', slot('nodeType'));
  for (const node of [dom.document, dom.document.documentElement, dom.document.head]) {
    const type = node.nodeType;
    delete node.nodeType;
    node.nodeType = type;
  }
  Object.defineProperty(Event.prototype, 'target', slot('target'));
  Object.defineProperty(Event.prototype, 'type', slot('type'));
  Object.defineProperty(Node.prototype, 'isConnected', {
    get() {
      let node = this;
      while (node.parentNode) { node = node.parentNode; }
      return node === dom.document;
    },
    enumerable: true, configurable: true
  });
  Object.defineProperty(Node.prototype, 'baseURI', {
    get() {
      const owner = this.nodeType === 9 ? this : (this.__owner || dom.document);
      const base = find(owner, (node) => node.nodeName === 'BASE' && node.getAttribute('href') !== null);
      const documentURL = owner.__url || g.location.href;
      return base === null ? documentURL : new URL(base.getAttribute('href'), documentURL).href;
    },
    enumerable: true, configurable: true
  });
  Element.prototype.removeAttribute = function removeAttribute(name) { delete this.attributes[name]; };
  Element.prototype.closest = function closest(selector) {
    for (let node = this; node && node.nodeType === 1; node = node.parentNode) { if (matches(node, selector)) { return node; } }
    return null;
  };
  Element.prototype.querySelectorAll = function querySelectorAll(selector) { return findAll(this, selector); };
  Document.prototype.querySelectorAll = function querySelectorAll(selector) { return findAll(this, selector); };

  function walk(node, visit) {
    for (const child of node.childNodes || []) {
      if (visit(child)) { return child; }
      const found = walk(child, visit);
      if (found) { return found; }
    }
    return null;
  }
  const find = (root, test) => walk(root, test) || null;
  // Selectors of the forms `name`, `name[attribute]`, `.class`, comma-separated.
  function matches(element, selector) {
    return selector.split(',').some((one) => {
      const match = /^\s*([a-zA-Z]*)(?:\[([a-z-]+)\])?(?:\.([a-z-]+))?\s*$/.exec(one);
      if (match === null) { throw new Error(`fake browser: unsupported selector ${one}`); }
      if (match[1] && element.nodeName.toLowerCase() !== match[1].toLowerCase()) { return false; }
      if (match[2] && element.getAttribute(match[2]) === null) { return false; }
      if (match[3] && !(element.getAttribute('class') || '').split(/\s+/).includes(match[3])) { return false; }
      return true;
    });
  }
  function findAll(root, selector) {
    const found = [];
    walk(root, (node) => { if (node.nodeType === 1 && matches(node, selector)) { found.push(node); } return false; });
    return found;
  }

  // --- Events along their path --------------------------------------------------------------
  // The fake's dispatchEvent calls `on<type>` as a property; a browser calls only the handler its
  // own attribute holds. An accessor of the object itself (blocking.js's stand-ins define their
  // handlers so, calling them from a listener) is no such attribute.
  // A click event page script dispatches at a link follows it too.
  const dispatchAtTarget = EventTarget.prototype.dispatchEvent;
  EventTarget.prototype.dispatchEvent = function dispatchEvent(event) {
    const own = Object.getOwnPropertyDescriptor(this, 'on' + event.type);
    let result;
    if (own === undefined || !own.get) {
      result = dispatchAtTarget.call(this, event);
    } else {
      Object.defineProperty(this, 'on' + event.type, { value: null, configurable: true });
      try {
        result = dispatchAtTarget.call(this, event);
      } finally {
        Object.defineProperty(this, 'on' + event.type, own);
      }
    }
    if (event.type === 'click' && this.nodeType === 1 && !event.defaultPrevented) { follow(this); }
    return result;
  };
  Event.prototype.composedPath = function composedPath() { return this.__path ? this.__path.slice() : []; };
  Event.prototype.preventDefault = function preventDefault() { if (this.cancelable) { this.__prevented = true; } };
  Object.defineProperty(Event.prototype, 'defaultPrevented', { get() { return this.__prevented === true; }, configurable: true });
  class SubmitEvent extends Event {
    constructor(type, init) {
      super(type);
      this.bubbles = true;
      this.cancelable = true;
      Object.defineProperty(this, '__submitter', { value: (init && init.submitter) || null });
    }
    get submitter() { return this.__submitter; }
  }
  class CloseEvent extends Event {
    constructor(type, init) {
      super(type);
      this.code = init ? init.code : 0;
      this.wasClean = init ? init.wasClean : false;
    }
  }
  function listenersOf(target, type, capture) {
    return (target._listeners || []).filter((entry) => entry.type === type && (capture === null || entry.capture === capture));
  }
  // Capture from window down, the target's own listeners, then bubbling up.
  function dispatchAlong(target, event) {
    const path = [];
    for (let node = target; node; node = node.parentNode) { path.push(node); }
    if (path[path.length - 1] === dom.document) { path.push(global); }
    event.target = target;
    Object.defineProperty(event, '__path', { value: path, configurable: true });
    const call = (node, entries) => { for (const entry of entries) { entry.listener.call(node, event); } };
    for (let i = path.length - 1; i > 0; i--) { call(path[i], listenersOf(path[i], event.type, true)); }
    call(target, listenersOf(target, event.type, null));
    if (event.bubbles) { for (let i = 1; i < path.length; i++) { call(path[i], listenersOf(path[i], event.type, false)); } }
    return !event.defaultPrevented;
  }

  // --- Elements ------------------------------------------------------------------------------
  class HTMLElement extends Element {
    click() {
      const event = new Event('click');
      event.bubbles = true;
      event.cancelable = true;
      if (dispatchAlong(this, event)) { follow(this); }
    }
  }
  // The activation behaviour of the nearest link: WebKit follows a link outside the document too.
  function follow(target) {
    const link = target.closest('a,area');
    if (link === null || link.getAttribute('href') === null) { return; }
    for (const ping of (link.getAttribute('ping') || '').split(/\s+/).filter(Boolean)) {
      network.push({ url: new URL(ping, link.baseURI).href, type: 'ping' });
    }
  }
  class HTMLAnchorElement extends HTMLElement {}
  class HTMLFormElement extends HTMLElement {
    submit() { if (this.isConnected) { submitted(this, null); } }
    requestSubmit(submitter) {
      if (dispatchAlong(this, new SubmitEvent('submit', { submitter: submitter || null }))) { submitted(this, submitter || null); }
    }
  }
  function submitted(form, submitter) {
    const action = (submitter && submitter.getAttribute('formaction')) || form.getAttribute('action') || '';
    network.push({ url: new URL(action, form.baseURI).href, type: 'form', target: form.getAttribute('target') });
  }
  class HTMLTemplateElement extends HTMLElement {
    get content() {
      if (!this.__content) { Object.defineProperty(this, '__content', { value: new DocumentFragment(inertDocument()) }); }
      return this.__content;
    }
  }
  class DocumentFragment extends Node {
    constructor(owner) {
      super();
      this.nodeType = 11;
      this.nodeName = '#document-fragment';
      Object.defineProperty(this, '__owner', { value: owner || dom.document, writable: true });
    }
    querySelectorAll(selector) { return findAll(this, selector); }
  }
  class DocumentType extends Node {
    constructor(text) {
      super();
      this.nodeType = 10;
      Object.defineProperty(this, '__text', { value: text.trim() });
    }
    get name() { return this.__text.split(/\s+/)[0] || 'html'; }
    get publicId() { return ''; }
    get systemId() { return ''; }
  }
  const createElement = Document.prototype.createElement;
  const classes = { a: HTMLAnchorElement, area: HTMLAnchorElement, form: HTMLFormElement, template: HTMLTemplateElement };
  const { recordCSS, parserSetText, installRange } = installElements({ g, dom, network, classes, HTMLElement, baseSetAttribute: setAttribute });
  Document.prototype.createElement = function (name) {
    const lowered = name.toLowerCase();
    const Class = classes[lowered] || HTMLElement;
    // The fake DOM's own script, img and iframe elements, whose src setters blocking.js wraps.
    const element = ['script', 'img', 'iframe'].includes(lowered) ? createElement.call(this, name) : new Class(name);
    Object.defineProperty(element, '__owner', { value: this, writable: true });
    return element;
  };
  Object.defineProperty(Document.prototype, 'doctype', { get() { return this.__doctype || null; }, configurable: true });
  Object.defineProperty(Document.prototype, 'documentElement', slot('documentElement'));
  Object.defineProperty(Document.prototype, 'implementation', {
    get() { return new DOMImplementation(); }, configurable: true
  });
  class DOMImplementation {
    createHTMLDocument() { return inertDocument(); }
  }
  function inertDocument() {
    const made = new Document();
    Object.defineProperty(made, '__inert', { value: true });
    return made;
  }
  class DOMParser {
    parseFromString(markup) {
      const parsed = inertDocument();
      const nodes = parse(markup, parsed, parsed);
      let html = nodes.find((node) => node.nodeName === 'HTML');
      if (!html) {
        html = parsed.createElement('html');
        for (const node of nodes) { if (node.nodeType !== 10) { append(html, node); } }
      }
      parsed.childNodes = [html];
      html.parentNode = parsed;
      parsed.documentElement = html;
      return parsed;
    }
  }

  // --- The HTML parser and what its elements load ---------------------------------------------
  function append(parent, child) {
    child.parentNode = parent;
    parent.childNodes.push(child);
  }
  // Nodes of `markup`, made by `owner`; a doctype goes to `documentNode` when given.
  function parse(markup, owner, documentNode) {
    const root = new DocumentFragment(owner);
    const stack = [root];
    const top = () => stack[stack.length - 1];
    TOKEN.lastIndex = 0;
    let match;
    while ((match = TOKEN.exec(markup)) !== null) {
      if (match[0].startsWith('<!--')) { continue; }
      if (match[1] !== undefined) {
        if (documentNode) { Object.defineProperty(documentNode, '__doctype', { value: new DocumentType(match[1]), configurable: true }); }
        continue;
      }
      if (match[2] !== undefined) {
        const name = match[2].toUpperCase();
        const index = stack.map((node) => node.nodeName).lastIndexOf(name);
        if (index > 0) { stack.length = index; }
        continue;
      }
      if (match[3] !== undefined) {
        const name = match[3].toLowerCase();
        const element = owner.createElement(name);
        ATTRIBUTE.lastIndex = 0;
        let attribute;
        while ((attribute = ATTRIBUTE.exec(match[4] || '')) !== null) {
          const value = attribute[2] !== undefined ? attribute[2] : attribute[3] !== undefined ? attribute[3] : attribute[4] || '';
          setAttribute.call(element, attribute[1].toLowerCase(), decode(value));
        }
        append(top(), element);
        if (name === 'script' || name === 'style') {
          const end = markup.toLowerCase().indexOf(`</${name}`, TOKEN.lastIndex);
          const stop = end < 0 ? markup.length : end;
          parserSetText(element, markup.slice(TOKEN.lastIndex, stop));
          TOKEN.lastIndex = stop;
          continue;
        }
        if (!VOID.has(name) && !match[0].endsWith('/>')) { stack.push(element); }
        continue;
      }
      const text = new Node();
      text.nodeType = 3;
      Object.defineProperty(text, 'textContent', { value: decode(match[0]) });
      append(top(), text);
    }
    return root.childNodes.slice();
  }
  function serialize(node) {
    if (node.nodeType === 3) { return node.textContent; }
    if (node.nodeType === 11 || node.nodeType === 9) { return node.childNodes.map(serialize).join(''); }
    const name = node.nodeName.toLowerCase();
    const attributes = Object.keys(node.attributes).map((key) => ` ${key}="${encode(node.attributes[key])}"`).join('');
    if (VOID.has(name)) { return `<${name}${attributes}>`; }
    const inner = name === 'script' || name === 'style' ? node.textContent : node.childNodes.map(serialize).join('');
    return `<${name}${attributes}>${inner}</${name}>`;
  }
  // What the browser requests for the elements of `nodes` made in a live document.
  function load(nodes, scriptsRun) {
    const queue = nodes.slice();
    while (queue.length > 0) {
      const element = queue.shift();
      // With scripting on, <noscript>'s content is text.
      if (element.nodeType !== 1 || element.nodeName === 'NOSCRIPT') { continue; }
      queue.push(...element.childNodes);
      if (element.__owner && element.__owner.__inert) { continue; }
      const name = element.nodeName.toLowerCase();
      if (element.getAttribute('style') !== null) { recordCSS(element.getAttribute('style')); }
      if (name === 'style') { recordCSS(element.textContent); }
      const url = (attribute, type) => {
        const value = element.getAttribute(attribute);
        if (value) { network.push({ url: new URL(value.trim().split(/[\s,]+/)[0], element.baseURI).href, type }); }
      };
      if (name === 'script') {
        const type = element.getAttribute('type');
        if (scriptsRun && (type === null || /^(?:text\/javascript|module)$/i.test(type))) { url('src', 'script'); }
      } else if (name === 'img') {
        url('src', 'image');
        url('srcset', 'image');
      } else if (name === 'iframe' || name === 'frame') {
        url('src', 'subdocument');
      } else if (name === 'link' && /stylesheet/.test(element.getAttribute('rel') || '')) {
        url('href', 'stylesheet');
      } else if (name === 'object') {
        url('data', 'object');
      } else if (name === 'input' && element.getAttribute('type') === 'image') {
        url('src', 'image');
      } else if (name === 'video') {
        url('src', 'media');
        url('poster', 'image');
      }
    }
  }
  function parseInto(parent, markup, scriptsRun) {
    const owner = parent.nodeType === 9 ? parent : (parent.__owner || dom.document);
    const nodes = parse(markup, owner, null);
    if (parent instanceof HTMLTemplateElement) {
      parent.content.childNodes = [];
      for (const node of nodes) { append(parent.content, node); }
      return nodes;
    }
    for (const node of nodes) { append(parent, node); }
    load(nodes, scriptsRun);
    return nodes;
  }
  function markupAccessor(get, set) {
    return { get, set, enumerable: true, configurable: true };
  }
  Object.defineProperty(Element.prototype, 'innerHTML', markupAccessor(function () {
    return (this instanceof HTMLTemplateElement ? this.content : this).childNodes.map(serialize).join('');
  }, function (markup) {
    if (this.nodeName === 'STYLE') {
      // A <style>'s markup is its style sheet.
      parserSetText(this, String(markup));
      recordCSS(String(markup));
      return;
    }
    this.childNodes = [];
    parseInto(this, String(markup), false);
  }));
  Object.defineProperty(Element.prototype, 'outerHTML', markupAccessor(function () { return serialize(this); }, function (markup) {
    const parent = this.parentNode;
    const nodes = parseInto(parent, String(markup), false);
    parent.childNodes = parent.childNodes.filter((node) => node !== this && !nodes.includes(node));
    parent.childNodes.push(...nodes);
  }));
  Element.prototype.insertAdjacentHTML = function insertAdjacentHTML(position, markup) { parseInto(this, String(markup), false); };
  Element.prototype.setHTMLUnsafe = function setHTMLUnsafe(markup) {
    this.childNodes = [];
    parseInto(this, String(markup), false);
  };
  Document.prototype.write = function write(...markup) {
    if (!this.body) {
      this.body = this.createElement('body');
      append(this.documentElement, this.body);
    }
    parseInto(this.body, markup.join(''), true);
  };
  Document.prototype.writeln = function writeln(...markup) { this.write(...markup, '\n'); };
  class Range {
    createContextualFragment(markup) {
      const fragment = new DocumentFragment(dom.document);
      for (const node of parse(String(markup), dom.document, null)) { append(fragment, node); }
      load(fragment.childNodes, true);
      return fragment;
    }
  }
  installRange(Range);
  // srcdoc: a document of its own, whose URLs resolve against the frame element's base URL.
  Object.defineProperty(g.HTMLIFrameElement.prototype, 'srcdoc', markupAccessor(function () {
    return this.getAttribute('srcdoc') || '';
  }, function (markup) {
    setAttribute.call(this, 'srcdoc', String(markup));
    const frameDocument = new Document();
    Object.defineProperty(frameDocument, '__url', { value: this.baseURI });
    load(parse(String(markup), frameDocument, frameDocument), true);
  }));

  // --- Connections, workers, worklets --------------------------------------------------------
  const resolve = (value) => new URL(String(value), dom.document.baseURI).href;
  const later = (callback) => setTimeout(callback, 0);
  function readOnly(target, values) {
    for (const [name, value] of Object.entries(values)) {
      Object.defineProperty(target, name, { value, writable: false, enumerable: true, configurable: false });
    }
  }
  class WebSocket extends EventTarget {
    constructor(url) {
      super();
      Object.defineProperty(this, '__url', { value: resolve(url).replace(/^http/, 'ws') });
      network.push({ url: this.__url, type: 'websocket' });
    }
    get url() { return this.__url; }
    get readyState() { return 0; }
    send() {}
    close() {}
  }
  readOnly(WebSocket, { CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3 });
  readOnly(WebSocket.prototype, { CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3 });
  class EventSource extends EventTarget {
    constructor(url) {
      super();
      const absolute = resolve(url);
      Object.defineProperty(this, '__state', { value: 0, writable: true });
      Object.defineProperty(this, '__url', { value: absolute, configurable: true });
      if (absolute.startsWith('data:')) {
        later(() => {
          this.__state = 2;
          this.dispatchEvent(new Event('error'));
        });
      } else {
        network.push({ url: absolute, type: 'eventsource' });
      }
    }
    get url() { return this.__url; }
    get readyState() { return this.__state; }
  }
  readOnly(EventSource, { CONNECTING: 0, OPEN: 1, CLOSED: 2 });
  function workerClass(type) {
    return class extends EventTarget {
      constructor(url) {
        super();
        const absolute = resolve(url);
        if (absolute.startsWith('data:')) {
          later(() => this.dispatchEvent(new Event('error')));
        } else {
          network.push({ url: absolute, type });
        }
      }
    };
  }
  const Worker = workerClass('worker');
  const SharedWorker = workerClass('sharedworker');
  Object.defineProperty(Worker, 'name', { value: 'Worker' });
  Object.defineProperty(SharedWorker, 'name', { value: 'SharedWorker' });
  class ServiceWorkerContainer {
    register(url) {
      network.push({ url: resolve(url), type: 'serviceworker' });
      return Promise.resolve({});
    }
  }
  class Worklet {
    addModule(url) {
      network.push({ url: resolve(url), type: 'worklet' });
      return Promise.resolve();
    }
  }
  class AudioWorklet extends Worklet {}
  class DOMException extends Error {
    constructor(message, name) {
      super(message);
      Object.defineProperty(this, 'name', { value: name || 'Error' });
    }
  }
  g.fetch = function fetch(input) {
    network.push({ url: resolve(input instanceof g.Request ? input.url : input), type: 'fetch' });
    return Promise.resolve({ ok: true });
  };
  g.navigator.serviceWorker = new ServiceWorkerContainer();

  Object.assign(g, {
    HTMLElement, HTMLAnchorElement, HTMLFormElement, HTMLTemplateElement, DocumentFragment, DocumentType, DOMImplementation,
    DOMParser, Range, SubmitEvent, CloseEvent, WebSocket, EventSource, Worker, SharedWorker, ServiceWorkerContainer, Worklet,
    AudioWorklet, DOMException, audioWorklet: new AudioWorklet()
  });
  dom.document.body = dom.document.createElement('body');
  append(dom.document.documentElement, dom.document.body);
  dom.document.documentElement.__owner = dom.document;
  dom.document.head.__owner = dom.document;

  const page = helpers.createPage(g);
  const global = page.global;
  const run = (code) => vm.runInContext(code, page.context);
  return { dom, page, global, network, run, dispatchAlong };
}

// A tracker, tracker.test, blocked by default, whose analytics.js a surrogate stands in for and
// whose /allowed path is ignored; metrics.site.example is a CNAME of it (a first-party host that
// is a tracker's).
function writeInputs() {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'trackerless-script-mode-'));
  const owner = { name: 'Tracker Inc', displayName: 'Tracker' };
  const tds = {
    trackers: {
      'tracker.test': {
        domain: 'tracker.test', owner, default: 'block',
        rules: [
          { rule: 'tracker\\.test/analytics\\.js', surrogate: 'analytics.js' },
          { rule: 'tracker\\.test/allowed', action: 'ignore' }
        ]
      }
    },
    entities: { 'Tracker Inc': { domains: ['tracker.test'], displayName: 'Tracker' } },
    domains: { 'tracker.test': 'Tracker Inc' },
    cnames: { 'metrics.site.example': 'collect.tracker.test' }
  };
  const surrogates = [
    'tracker.test/analytics.js application/javascript',
    '(function () { window.surrogateRuns = (window.surrogateRuns || 0) + 1; window.ga = function () {}; })();',
    ''
  ].join('\n');
  fs.writeFileSync(path.join(folder, 'tds.json'), JSON.stringify(tds));
  fs.writeFileSync(path.join(folder, 'surrogates.txt'), surrogates);
  return { tds: path.join(folder, 'tds.json'), surrogates: path.join(folder, 'surrogates.txt') };
}

const rendered = {};
// blocking.js over that data, blocking in script or not (or only sendBeacon and fetch).
function blockingScript(blockInScript, blockKeepalive) {
  const key = String(blockInScript) + ' ' + String(blockKeepalive === true);
  if (rendered[key] === undefined) {
    rendered[key] = helpers.renderBlocking(Object.assign(writeInputs(), { blockInScript, blockKeepalive, batchInterval: 20 }));
  }
  return rendered[key];
}

// A fake browser at `url` (https://site.example/page by default) running blocking.js;
// `before(browser)` runs first (a page's `<base>`, hooks of a page that runs before the script).
function openBrowser(options) {
  options = options || {};
  const browser = createBrowser(options.url || 'https://site.example/page');
  if (options.before) { options.before(browser); }
  const { api } = helpers.runBlocking(blockingScript(options.blockInScript !== false, options.blockKeepalive), browser.page);
  return Object.assign(browser, { api });
}

// A `<base href>` in the page's head, as the HTML parser adds it.
function addBase(browser, href) {
  const base = browser.dom.document.createElement('base');
  browser.dom.parserSetAttribute(base, 'href', href);
  browser.dom.document.head.appendChild(base);
  return base;
}

const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
// The events of the messages posted (in the test's realm), once no message has come for three
// batch intervals after five (10 s at most, for a loaded machine).
async function reports(browser) {
  const start = Date.now();
  await wait(100);
  let count = -1;
  while (count !== browser.page.posted.length && Date.now() - start < 10000) {
    count = browser.page.posted.length;
    await wait(60);
  }
  return browser.page.posted.flatMap((message) => JSON.parse(JSON.stringify(message.events)));
}

// What a test compares, as lines: the requests that reached the network, and the reported events.
const network = (browser) => browser.network.map((request) => `${request.type} ${request.url}`);
const stated = (events) => events.map((event) => `${event.state} ${event.type} ${event.url}`);

module.exports = { createBrowser, openBrowser, addBase, reports, wait, helpers, network, stated };
