'use strict';
// A small fake page for running one surrogate in a fresh vm context, the way the blocking script
// runs it: the source as the body of a function. Every network API of the fake records its use
// in `page.network`, so a test can assert that a surrogate made no request; timers are fake and
// run by `page.settle()`, so callbacks are counted without waiting.
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');

const repoRoot = path.resolve(__dirname, '..', '..', '..');
const surrogatesDirectory = path.join(repoRoot, 'Surrogates');

function surrogateSource(name) {
  return fs.readFileSync(path.join(surrogatesDirectory, name), 'utf8');
}

function surrogateNames() {
  return fs.readdirSync(surrogatesDirectory).filter((file) => file.endsWith('.js')).sort();
}

class FakeElement {
  constructor(page, tagName, attributes) {
    this.page = page;
    this.tagName = tagName.toUpperCase();
    this.attributes = new Map();
    this.children = [];
    this.parentNode = null;
    this.style = {};
    for (const [name, value] of Object.entries(attributes || {})) this.setAttribute(name, value);
  }

  get id() { return this.getAttribute('id') || ''; }
  set id(value) { this.setAttribute('id', value); }
  get className() { return this.getAttribute('class') || ''; }
  set className(value) { this.setAttribute('class', value); }
  get src() { return this.getAttribute('src') || ''; }
  set src(value) { this.setAttribute('src', value); }

  getAttribute(name) { return this.attributes.has(name) ? this.attributes.get(name) : null; }
  hasAttribute(name) { return this.attributes.has(name); }
  removeAttribute(name) { this.attributes.delete(name); }
  setAttribute(name, value) {
    if (name === 'src' || (name === 'href' && this.tagName === 'LINK')) this.page.record('element.' + name, String(value));
    this.attributes.set(name, String(value));
  }

  appendChild(child) {
    if (child instanceof FakeElement && ['SCRIPT', 'IFRAME', 'IMG', 'LINK'].includes(child.tagName)) {
      this.page.record('insert.' + child.tagName.toLowerCase(), child.src);
    }
    this.children.push(child);
    if (child && typeof child === 'object') child.parentNode = this;
    return child;
  }

  insertBefore(child) { return this.appendChild(child); }
  removeChild(child) {
    this.children = this.children.filter((entry) => entry !== child);
    return child;
  }

  addEventListener() {}
  removeEventListener() {}
  querySelectorAll() { return []; }
  querySelector() { return null; }
  getElementsByTagName() { return []; }
  matches(selector) {
    const match = /^([a-z0-9]*)(?:\.([\w-]+))?$/i.exec(selector.trim());
    if (!match) return false;
    const [, tag, className] = match;
    if (tag && tag.toUpperCase() !== this.tagName) return false;
    return !className || this.className.split(/\s+/).includes(className);
  }
}

// Options: `globals` (extra properties of window), `url`.
function createPage(options = {}) {
  const page = {
    network: [],
    cookies: [],
    navigations: [],
    uncaught: [],
    elements: [],
    timers: [],
    now: 0,
    nextTimer: 1,
    record(api, detail) { page.network.push({ api, detail }); }
  };
  const url = options.url || 'https://www.example.com/article';
  const location = {
    protocol: 'https:',
    hostname: new URL(url).hostname,
    host: new URL(url).host,
    pathname: new URL(url).pathname,
    search: '',
    hash: '',
    origin: new URL(url).origin,
    assign(target) { page.navigations.push(String(target)); },
    replace(target) { page.navigations.push(String(target)); },
    toString() { return url; }
  };
  // A navigation is recorded, not followed.
  Object.defineProperty(location, 'href', {
    get() { return url; },
    set(target) { page.navigations.push(String(target)); }
  });
  const head = new FakeElement(page, 'head');
  const body = new FakeElement(page, 'body');
  const documentElement = new FakeElement(page, 'html');
  const document = {
    head,
    body,
    documentElement,
    readyState: 'complete',
    referrer: '',
    title: 'A page',
    currentScript: null,
    location,
    createElement(tag) {
      if (['script', 'iframe', 'img'].includes(String(tag).toLowerCase())) page.record('createElement', String(tag));
      return new FakeElement(page, String(tag));
    },
    createTextNode(text) { return { nodeType: 3, textContent: String(text) }; },
    getElementById(id) { return page.elements.find((element) => element.id === id) || null; },
    getElementsByTagName(tag) {
      return page.elements.filter((element) => tag === '*' || element.tagName === String(tag).toUpperCase());
    },
    getElementsByClassName(name) { return page.elements.filter((element) => element.matches('.' + name)); },
    querySelectorAll(selector) { return page.elements.filter((element) => element.matches(selector)); },
    querySelector(selector) { return document.querySelectorAll(selector)[0] || null; },
    addEventListener() {},
    removeEventListener() {},
    write(html) { page.record('document.write', String(html)); },
    writeln(html) { page.record('document.write', String(html)); }
  };
  Object.defineProperty(document, 'cookie', {
    get() { return ''; },
    set(value) { page.cookies.push(String(value)); }
  });
  function setTimeout(callback, delay, ...args) {
    const id = page.nextTimer++;
    if (typeof callback === 'function') {
      page.timers.push({ id, at: page.now + Math.max(0, Number(delay) || 0), callback, args });
    }
    return id;
  }
  function clearTimeout(id) { page.timers = page.timers.filter((timer) => timer.id !== id); }
  function XMLHttpRequest() { page.record('XMLHttpRequest', 'new'); }
  XMLHttpRequest.prototype.open = function (method, target) { page.record('XMLHttpRequest.open', String(target)); };
  XMLHttpRequest.prototype.send = function () { page.record('XMLHttpRequest.send', ''); };
  XMLHttpRequest.prototype.setRequestHeader = function () {};
  function Image() {
    page.record('Image', 'new');
    return new FakeElement(page, 'img');
  }
  const sandbox = {
    document,
    location,
    navigator: {
      userAgent: 'Mozilla/5.0 (trackerless test page)',
      language: 'en-US',
      cookieEnabled: true,
      sendBeacon(target) { page.record('sendBeacon', String(target)); return true; }
    },
    screen: { width: 1280, height: 800 },
    console: { log() {}, warn() {}, error() {}, info() {}, debug() {} },
    setTimeout,
    clearTimeout,
    setInterval: setTimeout,
    clearInterval: clearTimeout,
    fetch(target) {
      page.record('fetch', String(target));
      return Promise.reject(new Error('no network in tests'));
    },
    XMLHttpRequest,
    Image,
    WebSocket: function WebSocket(target) { page.record('WebSocket', String(target)); },
    EventSource: function EventSource(target) { page.record('EventSource', String(target)); },
    addEventListener() {},
    removeEventListener() {},
    ...options.globals
  };
  page.context = vm.createContext(sandbox);
  vm.runInContext('var window = globalThis, self = globalThis, top = globalThis, parent = globalThis;', page.context);
  page.window = vm.runInContext('globalThis', page.context);
  page.baseline = new Set(Object.keys(page.window));

  // Runs code of the page itself (a vendor's snippet) in the page.
  page.run = (code) => vm.runInContext(code, page.context);
  // Runs a surrogate the way the blocking script does: its source is the body of a function.
  page.load = (name) => {
    vm.runInContext('(function () {\n' + surrogateSource(name) + '\n}).call(undefined);', page.context, { filename: name });
  };
  page.addElement = (tag, attributes) => {
    const element = new FakeElement(page, tag, attributes);
    page.elements.push(element);
    body.children.push(element);
    return element;
  };
  // Globals added since the page was created.
  page.newGlobals = () => Object.keys(page.window).filter((key) => !page.baseline.has(key)).sort();
  // Runs the due timers, in time order, up to `milliseconds` of fake time from now, letting
  // promise jobs run in between; an exception of a timer is kept in `page.uncaught`.
  page.settle = async (milliseconds = 60000) => {
    const end = page.now + milliseconds;
    await new Promise(setImmediate);
    for (;;) {
      page.timers.sort((a, b) => a.at - b.at || a.id - b.id);
      const timer = page.timers[0];
      if (!timer || timer.at > end) break;
      page.timers.shift();
      page.now = timer.at;
      try {
        timer.callback(...timer.args);
      } catch (error) {
        page.uncaught.push(error);
      }
      await new Promise(setImmediate);
    }
    page.now = Math.max(page.now, end);
  };
  return page;
}

module.exports = { createPage, repoRoot, surrogateNames, surrogateSource };

// What every surrogate test ends with: no request, no cookie, no exception out of a timer.
function assertQuiet(assert, page) {
  assert.deepEqual(page.network, [], 'network APIs used');
  assert.deepEqual(page.cookies, [], 'cookies written');
  assert.deepEqual(page.uncaught.map(String), [], 'exceptions thrown from timers');
}

module.exports.assertQuiet = assertQuiet;
