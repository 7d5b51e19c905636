'use strict';
// What blocking.js's wrappers look like to a page, and the new wrappers under a hostile page.
//
// A wrapper looks like the built-in it replaces: a constructor keeps its name, length, static
// properties, the prototype of the function and its `prototype` (`instanceof` and subclasses
// work; the prototype's `constructor` is the wrapper), and still refuses a call without `new`; a
// method or accessor keeps its name, length and property attributes and, like a built-in one,
// refuses `new` (and has a `prototype` only where the built-in has one). (Function.prototype.toString shows the wrapper's source.)
//
// Under the hostile page of ../hostile-page.js (hooks on every protocol key, toJSON, the
// built-ins), blocking in script through the new wrappers never shows the page the secret, a
// page id or an event, and the host still gets every blocked request.

const test = require('node:test');
const assert = require('node:assert/strict');
const hostile = require('../hostile-page.js');
const { openBrowser, reports, wait, helpers } = require('./fake-browser.js');

const skip = helpers.missing([]);

const constructors = ['WebSocket', 'EventSource', 'Worker', 'SharedWorker', 'FontFace'];
// What each constructor is called with: a URL, or a font face's family and source.
const argumentsOf = (name) => (name === 'FontFace' ? "'x', 'local(x)'" : "'https://cdn.example/x'");
// [owner in the page, property, what it is].
const methods = [
  ['window', 'fetch'], ['navigator', 'sendBeacon'], ['XMLHttpRequest.prototype', 'open'], ['XMLHttpRequest.prototype', 'send'],
  ['Element.prototype', 'setAttribute'], ['ServiceWorkerContainer.prototype', 'register'], ['Worklet.prototype', 'addModule'],
  ['HTMLFormElement.prototype', 'submit'], ['HTMLElement.prototype', 'click'], ['EventTarget.prototype', 'dispatchEvent'],
  ['Document.prototype', 'write'],
  ['Document.prototype', 'writeln'], ['Element.prototype', 'insertAdjacentHTML'], ['Element.prototype', 'setHTMLUnsafe'],
  ['Range.prototype', 'createContextualFragment'], ['StylePropertyMap.prototype', 'set'], ['StylePropertyMap.prototype', 'append'],
  ['CharacterData.prototype', 'appendData'], ['CharacterData.prototype', 'insertData'], ['CharacterData.prototype', 'replaceData'],
  ['CharacterData.prototype', 'deleteData'], ['CharacterData.prototype', 'before'], ['CharacterData.prototype', 'after'],
  ['CharacterData.prototype', 'replaceWith'], ['CharacterData.prototype', 'remove'], ['Text.prototype', 'splitText'],
  ['Node.prototype', 'normalize'], ['Range.prototype', 'deleteContents'], ['Range.prototype', 'extractContents'],
  ['Range.prototype', 'insertNode'], ['Range.prototype', 'surroundContents']
];
const setters = [
  ['HTMLImageElement.prototype', 'src'], ['HTMLScriptElement.prototype', 'src'], ['HTMLIFrameElement.prototype', 'src'],
  ['Element.prototype', 'innerHTML'], ['Element.prototype', 'outerHTML'], ['HTMLIFrameElement.prototype', 'srcdoc']
];

test('script mode: every wrapper has the shape of the built-in it replaces', { skip: skip || false }, () => {
  const originals = {};
  const browser = openBrowser({
    before: (page) => {
      for (const name of constructors) { originals[name] = page.run(name); }
      for (const [owner, name] of methods) { originals[`${owner}.${name}`] = page.run(`Object.getOwnPropertyDescriptor(${owner}, '${name}')`); }
      for (const [owner, name] of setters) { originals[`${owner}.${name}`] = page.run(`Object.getOwnPropertyDescriptor(${owner}, '${name}')`); }
    }
  });
  const { run } = browser;
  const failures = [];
  const expect = (condition, what) => { if (!condition) { failures.push(what); } };
  for (const name of constructors) {
    const original = originals[name];
    const wrapper = run(name);
    expect(wrapper !== original, `${name} is not wrapped`);
    expect(wrapper.name === name && wrapper.length === original.length, `${name}: name ${wrapper.name}, length ${wrapper.length}`);
    expect(wrapper.prototype === original.prototype, `${name}.prototype is not the built-in's`);
    expect(wrapper.prototype.constructor === wrapper, `${name}.prototype.constructor is not ${name}`);
    expect(Object.getPrototypeOf(wrapper) === Object.getPrototypeOf(original), `${name}'s prototype`);
    expect(JSON.stringify(Object.getOwnPropertyDescriptor(wrapper, 'prototype')) === JSON.stringify(Object.getOwnPropertyDescriptor(original, 'prototype')),
      `${name}.prototype's attributes`);
    for (const key of Object.getOwnPropertyNames(original).filter((key) => /^[A-Z]+$/.test(key))) {
      expect(JSON.stringify(Object.getOwnPropertyDescriptor(wrapper, key)) === JSON.stringify(Object.getOwnPropertyDescriptor(original, key)), `${name}.${key}`);
    }
    expect(run(`(function () { try { ${name}(${argumentsOf(name)}); return 'called'; } catch (error) { return error !== null && error.name === 'TypeError'; } })()`) === true,
      `${name}() without new does not throw a TypeError`);
    expect(run(`new ${name}(${argumentsOf(name)}) instanceof ${name}`) === true, `new ${name}() instanceof ${name}`);
    expect(run(`(function () { class Own extends ${name} {} var made = new Own(${argumentsOf(name)}); return made instanceof Own && made instanceof ${name}; })()`) === true,
      `a subclass of ${name}`);
  }
  const shapeOf = (descriptor) => ({ writable: descriptor.writable, enumerable: descriptor.enumerable, configurable: descriptor.configurable });
  for (const [owner, name] of methods) {
    const original = originals[`${owner}.${name}`];
    const now = run(`Object.getOwnPropertyDescriptor(${owner}, '${name}')`);
    const what = `${owner}.${name}`;
    expect(original !== undefined && now !== undefined && now.value !== original.value, `${what} is not wrapped`);
    if (original === undefined || now === undefined) { continue; }
    expect(now.value.name === name && now.value.length === original.value.length, `${what}: name ${now.value.name}, length ${now.value.length}`);
    expect(JSON.stringify(shapeOf(now)) === JSON.stringify(shapeOf(original)), `${what}: attributes`);
    // The fake browser's own methods are functions with a `prototype`; a browser's have none.
    expect(Object.prototype.hasOwnProperty.call(now.value, 'prototype') === Object.prototype.hasOwnProperty.call(original.value, 'prototype'),
      `${what}: a prototype where the built-in has none, or none where it has one`);
    expect((() => { try { Reflect.construct(now.value, []); return false; } catch (error) { return error instanceof browser.global.TypeError || error instanceof TypeError; } })(),
      `new ${what}() does not throw a TypeError`);
  }
  for (const [owner, name] of setters) {
    const original = originals[`${owner}.${name}`];
    const now = run(`Object.getOwnPropertyDescriptor(${owner}, '${name}')`);
    const what = `${owner}.${name}`;
    expect(now.set !== original.set && now.get === original.get, `${what}: setter not wrapped, or getter changed`);
    expect(now.set.name === original.set.name && now.set.length === original.set.length, `${what}: setter name ${now.set.name}, length ${now.set.length}`);
    expect(now.enumerable === original.enumerable && now.configurable === original.configurable, `${what}: attributes`);
    expect(Object.prototype.hasOwnProperty.call(now.set, 'prototype') === Object.prototype.hasOwnProperty.call(original.set, 'prototype'),
      `${what}: the setter has a prototype where the built-in's has none, or none where it has one`);
  }
  assert.deepEqual(failures, []);
});

for (const when of ['before', 'after']) {
  test(`script mode, page hooks installed ${when} the script starts: the new wrappers block, and the page never sees the secret, a page id or an event`, { skip: skip || false }, async () => {
    const browser = openBrowser({
      url: 'https://metrics.site.example/',
      before: (page) => { if (when === 'before') { hostile.install(page.run, 'accessors'); } }
    });
    const { run } = browser;
    hostile.install(run, 'all');
    run(`
      new WebSocket('wss://tracker.test/socket');
      new EventSource('https://tracker.test/stream');
      new Worker('/worker.js');
      audioWorklet.addModule('https://tracker.test/worklet.js').then(null, function () {});
      navigator.serviceWorker.register('/sw.js').then(null, function () {});
      document.write('<img src="https://tracker.test/written.gif">');
      var div = document.createElement('div');
      document.body.appendChild(div);
      div.innerHTML = '<img srcset="https://tracker.test/inner.gif 2x">';
      var link = document.createElement('a');
      link.setAttribute('href', '/next');
      link.setAttribute('ping', 'https://tracker.test/ping');
      document.body.appendChild(link);
      link.click();
      var frame = document.createElement('iframe');
      frame.setAttribute('name', 'sink');
      document.body.appendChild(frame);
      var form = document.createElement('form');
      form.setAttribute('action', 'https://tracker.test/form');
      form.setAttribute('target', 'sink');
      document.body.appendChild(form);
      form.submit();
    `);
    await wait(50);
    const events = await reports(browser);
    assert.deepEqual(browser.network, []);
    assert.deepEqual(hostile.leaks(run, [helpers.SECRET]), [], 'the page saw the secret');
    assert.deepEqual(hostile.events(run).slice(0, 3), [], 'the page was given events it could change');
    const pageIds = new Set(browser.page.posted.map((message) => message.page.id));
    assert.deepEqual(hostile.leaks(run, [...pageIds]), [], 'the page saw the page id');
    assert.ok(hostile.seen(run).length > 0, 'the hooks ran');
    assert.deepEqual(events.map((event) => `${event.state} ${event.type} ${event.url}`), [
      'blocked websocket wss://tracker.test/socket',
      'blocked xmlhttprequest https://tracker.test/stream',
      'blocked script https://metrics.site.example/worker.js',
      'blocked script https://tracker.test/worklet.js',
      'blocked script https://metrics.site.example/sw.js',
      'blocked image https://tracker.test/written.gif',
      'blocked image https://tracker.test/inner.gif',
      'blocked subdocument https://tracker.test/form',
      // After the click's task: the page could still cancel it.
      'blocked ping https://tracker.test/ping'
    ]);
  });
}
