'use strict';
// A hostile page for the page-world scripts (blocking.js with its surrogates, inference.js where
// a host has no isolated world, every bridge): inside a vm context it hooks every key of the
// message protocol and of the scripts' own objects with getters and setters on Object.prototype
// and Array.prototype, defines toJSON, Symbol.toPrimitive, Symbol.iterator, Symbol.split,
// valueOf and toString, and wraps the built-ins a script could call (Function.prototype
// call/apply/bind, Reflect.apply, JSON, Array.prototype methods, Object.*, String.prototype
// methods, RegExp, Math, WeakMap, timers). Every value a hook is given (`this`, arguments, a
// written value) is kept; `leaks` then looks through them for the secret and the page ids.
// The hooks keep the page working: a setter still writes, a wrapped function still answers.

// The keys a message, its page, its events and the scripts' internal objects use, and those of
// property descriptors and observer options.
const KEYS = [
  'trackerless', 'secret', 'script', 'page', 'id', 'url', 'frame', 'isTopFrame', 'seq', 'events', 'dropped',
  'kind', 'type', 'state', 'surrogate', 'action', 'reason', 'tracker', 'owner', 'regex', 'scheme', 'host',
  'port', 'path', 'query', 'reported', 'outcome', 'pending', 'childList', 'subtree', 'attributes', 'attributeFilter', 'buffered', 'entryTypes',
  'characterData', 'attributeOldValue', 'characterDataOldValue', 'then', 'SCRIPT', 'IMG', 'IFRAME', 'DIV'
];
// Array indexes a full queue writes.
const INDEXES = 2100;

// Hooks that need no replaced function: accessors on the prototypes, toJSON, conversions and
// iteration. A page running before the scripts can install these too.
const ACCESSOR_HOOKS = `
(function (keys, indexes) {
  'use strict';
  var defineProperty = Object.defineProperty;
  var setPrototypeOf = Object.setPrototypeOf;
  var reflectApply = Reflect.apply;
  var seen = [];
  setPrototypeOf(seen, null);
  function record(value) { seen[seen.length] = value; }
  defineProperty(globalThis, '__hostileSeen', { __proto__: null, value: seen, configurable: true });
  function hook(target, key) {
    defineProperty(target, key, {
      __proto__: null,
      configurable: true,
      get: function () { record(this); return undefined; },
      set: function (value) {
        record(this);
        record(value);
        defineProperty(this, key, { __proto__: null, value: value, writable: true, enumerable: true, configurable: true });
      }
    });
  }
  for (var i = 0; i < keys.length; i++) {
    hook(Object.prototype, keys[i]);
    hook(Array.prototype, keys[i]);
  }
  for (var n = 0; n < indexes; n++) { hook(Array.prototype, String(n)); }
  var recordThis = function () { record(this); return undefined; };
  defineProperty(Object.prototype, 'toJSON', { __proto__: null, configurable: true, writable: true, value: recordThis });
  defineProperty(Array.prototype, 'toJSON', { __proto__: null, configurable: true, writable: true, value: recordThis });
  defineProperty(String.prototype, 'toJSON', { __proto__: null, configurable: true, writable: true, value: recordThis });
  defineProperty(Number.prototype, 'toJSON', { __proto__: null, configurable: true, writable: true, value: recordThis });
  defineProperty(Boolean.prototype, 'toJSON', { __proto__: null, configurable: true, writable: true, value: recordThis });
  // Records, then converts as OrdinaryToPrimitive does.
  defineProperty(Object.prototype, Symbol.toPrimitive, { __proto__: null, configurable: true, writable: true,
    value: function (hint) {
      record(this);
      var first = hint === 'string' ? 'toString' : 'valueOf';
      var second = hint === 'string' ? 'valueOf' : 'toString';
      var method = this[first];
      var result = typeof method === 'function' ? reflectApply(method, this, []) : this;
      if (result !== null && (typeof result === 'object' || typeof result === 'function')) {
        method = this[second];
        result = typeof method === 'function' ? reflectApply(method, this, []) : this;
      }
      if (result !== null && (typeof result === 'object' || typeof result === 'function')) { throw new TypeError('no primitive'); }
      return result;
    } });
  var valueOf = Object.prototype.valueOf;
  var toString = Object.prototype.toString;
  Object.prototype.valueOf = function () { record(this); return reflectApply(valueOf, this, []); };
  Object.prototype.toString = function () { record(this); return reflectApply(toString, this, []); };
  var values = Array.prototype[Symbol.iterator];
  Array.prototype[Symbol.iterator] = function () { record(this); return reflectApply(values, this, []); };
  // A string separator's split, recorded (and done by hand: String.prototype.split would ask
  // this hook again).
  var indexOf = String.prototype.indexOf;
  var slice = String.prototype.slice;
  defineProperty(String.prototype, Symbol.split, { __proto__: null, configurable: true, writable: true,
    value: function (string, limit) {
      record(this);
      record(string);
      var separator = '' + this;
      var parts = [];
      var start = 0;
      for (;;) {
        var end = separator === '' ? -1 : reflectApply(indexOf, string, [separator, start]);
        defineProperty(parts, parts.length, { __proto__: null, value: end < 0 ? reflectApply(slice, string, [start]) : reflectApply(slice, string, [start, end]), writable: true, enumerable: true, configurable: true });
        if (end < 0) { return parts; }
        start = end + separator.length;
      }
    } });
  defineProperty(Object.prototype, '__hostileRecord', { __proto__: null, value: record, configurable: true });
})
`;

// Built-ins replaced by wrappers that record their receiver and arguments; only a page running
// after the scripts' start can be defended against (what a script captured is the original).
const FUNCTION_HOOKS = `
(function (record, windowObject) {
  'use strict';
  var reflectApply = Reflect.apply;
  var construct = Reflect.construct;
  var defineProperty = Object.defineProperty;
  function wrap(owner, name) {
    var original = owner[name];
    if (typeof original !== 'function') { return; }
    var wrapper = function () {
      record(this);
      for (var i = 0; i < arguments.length; i++) { record(arguments[i]); }
      return new.target ? construct(original, arguments, new.target) : reflectApply(original, this, arguments);
    };
    // The global of a vm context takes assignments, not definitions (Node aborts on those).
    if (owner === windowObject) { owner[name] = wrapper; } else { defineProperty(owner, name, { __proto__: null, value: wrapper, writable: true, configurable: true }); }
  }
  var table = [
    [Function.prototype, ['call', 'apply', 'bind', 'toString']],
    [Reflect, ['apply', 'construct', 'ownKeys', 'defineProperty', 'get', 'set']],
    [JSON, ['stringify', 'parse']],
    [Array.prototype, ['push', 'pop', 'shift', 'unshift', 'slice', 'splice', 'concat', 'join', 'map', 'forEach',
      'filter', 'indexOf', 'includes', 'reduce', 'some', 'every', 'sort', 'reverse', 'keys', 'values', 'entries']],
    [Array, ['isArray', 'from', 'of']],
    [Object, ['keys', 'values', 'entries', 'assign', 'create', 'defineProperty', 'defineProperties',
      'setPrototypeOf', 'getPrototypeOf', 'getOwnPropertyDescriptor', 'getOwnPropertyNames', 'freeze']],
    [Object.prototype, ['hasOwnProperty', 'isPrototypeOf', 'propertyIsEnumerable']],
    [String.prototype, ['slice', 'substring', 'substr', 'indexOf', 'lastIndexOf', 'toLowerCase', 'toUpperCase',
      'split', 'charCodeAt', 'charAt', 'replace', 'trim', 'startsWith', 'endsWith', 'includes', 'concat']],
    [String, ['fromCharCode']],
    [RegExp.prototype, ['exec', 'test']],
    [Math, ['floor', 'random', 'min', 'max']],
    [Promise.prototype, ['then', 'catch']],
    [Promise, ['resolve', 'reject']]
  ];
  if (typeof WeakMap === 'function') { table[table.length] = [WeakMap.prototype, ['get', 'set', 'has']]; }
  for (var t = 0; t < table.length; t++) {
    for (var n = 0; n < table[t][1].length; n++) { wrap(table[t][0], table[t][1][n]); }
  }
  var timers = ['setTimeout', 'clearTimeout', 'setInterval', 'queueMicrotask'];
  for (var m = 0; m < timers.length; m++) { wrap(windowObject, timers[m]); }
})
`;

// Installs the hooks in the context that `run(code)` evaluates in: 'accessors' (what a page
// before the scripts can do too) or 'all' (the accessors and the wrapped built-ins, for a page
// after the scripts' start).
function install(run, which) {
  if (run('typeof __hostileSeen') === 'undefined') { run(ACCESSOR_HOOKS)(KEYS, INDEXES); }
  if (which === 'all') { run(FUNCTION_HOOKS)(run('__hostileRecord'), run('this')); }
}

// The values the hooks were given.
function seen(run) {
  return run('typeof __hostileSeen === "undefined" ? [] : __hostileSeen');
}

// Walks each value a hook saw and what it reaches through data properties of the page's own
// objects (those of the context, or without a prototype), calling visit(value, where). Objects
// of the test's realm (the fake DOM, the host's recorder) are the browser's, not the page's, and
// are not walked.
function walk(run, visit) {
  const visited = new Set();
  const testObject = Object.prototype;
  function isTestRealm(value) {
    let proto = Object.getPrototypeOf(value);
    while (proto !== null) {
      if (proto === testObject) { return true; }
      proto = Object.getPrototypeOf(proto);
    }
    return false;
  }
  function search(value, where, depth) {
    visit(value, where);
    if (value === null || typeof value !== 'object' || depth > 8) { return; }
    if (visited.has(value) || isTestRealm(value)) { return; }
    visited.add(value);
    for (const key of Reflect.ownKeys(value)) {
      const descriptor = Reflect.getOwnPropertyDescriptor(value, key);
      if (descriptor !== undefined && 'value' in descriptor) { search(descriptor.value, `${where}.${String(key)}`, depth + 1); }
    }
  }
  const values = seen(run);
  for (let i = 0; i < values.length; i++) { search(values[i], `hook value ${i}`, 0); }
}

// Where the hooks saw a string containing one of `secrets`: [{secret, where}].
function leaks(run, secrets) {
  const found = [];
  walk(run, (value, where) => {
    if (typeof value !== 'string') { return; }
    for (const secret of secrets) { if (value.includes(secret)) { found.push({ secret, where }); } }
  });
  return found;
}

// Where the hooks saw an event of a message (an object with a `kind` the protocol uses), which
// the page could then change or add to before it is sent.
function events(run) {
  const found = [];
  walk(run, (value, where) => {
    if (value === null || typeof value !== 'object') { return; }
    const kind = Reflect.getOwnPropertyDescriptor(value, 'kind');
    if (kind !== undefined && (kind.value === 'request' || kind.value === 'surrogate' || kind.value === 'navigation')) {
      found.push(where);
    }
  });
  return found;
}

module.exports = { install, seen, leaks, events, KEYS, INDEXES };
