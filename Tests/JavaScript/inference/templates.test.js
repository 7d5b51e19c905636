'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const vm = require('node:vm');
const { execFileSync } = require('node:child_process');
const { fillInference, readTemplate } = require('./fake-page.js');

const BRIDGES = ['webkit', 'android', 'webview2', 'none'];

// Syntax newer than ES2017 that node would accept but an older web view would not.
const NEWER_SYNTAX = [
  [/\?\./, 'optional chaining'],
  [/\?\?/, 'nullish coalescing'],
  [/catch\s*\{/, 'optional catch binding'],
  [/\.\.\./, 'spread or rest']
];

test('inference.js names only $SETTINGS$, $SECRET$, $BRIDGE$ and $MESSAGE_QUEUE$', () => {
  const names = readTemplate('inference.js').match(/\$[A-Z_]+\$/g);
  assert.deepEqual([...new Set(names)].sort(), ['$BRIDGE$', '$MESSAGE_QUEUE$', '$SECRET$', '$SETTINGS$']);
});

for (const bridge of BRIDGES) {
  test(`bridges/${bridge}.js is one function expression of (settings, captured) returning post`, () => {
    const source = readTemplate(path.join('bridges', bridge + '.js'));
    assert.doesNotMatch(source, /\$[A-Z_]+\$/);
    const factory = vm.runInNewContext('(' + source.trim() + '\n)');
    assert.equal(typeof factory, 'function');
    assert.equal(factory.length, 2);
    const post = factory({}, { window: {}, apply: Reflect.apply, JSONstringify: JSON.stringify });
    assert.equal(typeof post, 'function');
    assert.equal(post({ trackerless: 1 }), false);
  });

  test(`inference.js filled with the ${bridge} bridge passes node --check and uses ES2017 syntax only`, () => {
    const source = fillInference({ bridge });
    for (const [pattern, what] of NEWER_SYNTAX) { assert.doesNotMatch(source, pattern, what); }
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'inference-'));
    try {
      const file = path.join(dir, 'inference.js');
      fs.writeFileSync(file, source);
      execFileSync(process.execPath, ['--check', file], { stdio: 'pipe' });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
}

test('each bridge returns false, never throws, for a channel whose lookup throws', () => {
  const hostile = {};
  for (const name of ['webkit', 'chrome', 'trackerless']) {
    Object.defineProperty(hostile, name, { get() { throw new Error('hostile ' + name); } });
  }
  for (const bridge of BRIDGES) {
    const factory = vm.runInNewContext('(' + readTemplate(path.join('bridges', bridge + '.js')).trim() + '\n)');
    const post = factory({ handler: 'trackerless' }, { window: hostile, apply: Reflect.apply, JSONstringify: JSON.stringify });
    assert.equal(post({}), false, bridge);
  }
});

test('the android bridge returns false for a message JSON cannot write', () => {
  const sent = [];
  const factory = vm.runInNewContext('(' + readTemplate('bridges/android.js').trim() + '\n)');
  const post = factory({}, { window: { trackerless: { postMessage: (s) => sent.push(s) } }, apply: Reflect.apply, JSONstringify: JSON.stringify });
  const cyclic = {};
  cyclic.self = cyclic;
  assert.equal(post(cyclic), false);
  assert.equal(post(undefined), false);
  assert.equal(post({ a: 1 }), true);
  assert.deepEqual(sent, ['{"a":1}']);
});
