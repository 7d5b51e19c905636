'use strict';
// `<a ping>` followed after a click (of page script or of the user, in the document or outside
// it) and forms submitted into a frame (submit(), requestSubmit(), the user's submit button): in
// script mode the ping URLs and form actions the resolver blocks are never sent. A submission
// that replaces the top page is a navigation, which the resolver never blocks.

const test = require('node:test');
const assert = require('node:assert/strict');
const { openBrowser, reports, wait, helpers, network } = require('./fake-browser.js');

const skip = helpers.missing([]);

// Links with ping that page script clicks: in the document (a click on an element inside the
// link), outside it (click()), a click event it dispatches at one outside it, and one whose click
// it cancels.
const CLICKS = `
  window.link = document.createElement('a');
  link.setAttribute('href', '/next');
  link.setAttribute('ping', 'https://tracker.test/ping https://cdn.example/ping');
  var span = document.createElement('span');
  link.appendChild(span);
  document.body.appendChild(link);
  span.click();
  window.detached = document.createElement('a');
  detached.setAttribute('href', '/elsewhere');
  detached.setAttribute('ping', '/own-ping https://tracker.test/detached');
  detached.click();
  window.during = link.getAttribute('ping');
  var dispatched = document.createElement('a');
  dispatched.setAttribute('href', '/dispatched');
  dispatched.setAttribute('ping', 'https://tracker.test/dispatched');
  dispatched.dispatchEvent(new Event('click'));
  // A click the page cancels follows nothing: no ping, none to report either.
  var cancelled = document.createElement('a');
  cancelled.setAttribute('href', '/cancelled');
  cancelled.setAttribute('ping', 'https://tracker.test/cancelled');
  cancelled.addEventListener('click', function (event) { event.preventDefault(); });
  document.body.appendChild(cancelled);
  cancelled.click();
`;

test('script mode: a link\'s blocked ping URLs are not sent when page script clicks it (click(), or a click event it dispatches), in the document or outside; the attribute comes back; without blockInScript they are sent', { skip: skip || false }, async () => {
  const browser = openBrowser();
  browser.run(CLICKS);
  assert.deepEqual(network(browser), ['ping https://cdn.example/ping', 'ping https://site.example/own-ping']);
  assert.equal(browser.global.during, 'https://cdn.example/ping');
  await wait(10);
  assert.equal(browser.global.link.getAttribute('ping'), 'https://tracker.test/ping https://cdn.example/ping');
  assert.equal(browser.global.detached.getAttribute('ping'), '/own-ping https://tracker.test/detached');
  const events = await reports(browser);
  assert.deepEqual(events.map((event) => `${event.state} ${event.type} ${event.url}`), [
    'blocked ping https://tracker.test/ping', 'blocked ping https://tracker.test/detached', 'blocked ping https://tracker.test/dispatched'
  ]);
  const unblocked = openBrowser({ blockInScript: false });
  unblocked.run(CLICKS);
  assert.deepEqual(network(unblocked), [
    'ping https://tracker.test/ping', 'ping https://cdn.example/ping', 'ping https://site.example/own-ping',
    'ping https://tracker.test/detached', 'ping https://tracker.test/dispatched'
  ], 'without blockInScript');
});

// Forms of page script: into a frame by submit(), requestSubmit() and a submit button's
// formaction, one outside the document, and navigations of the top page or of a new window.
const SUBMISSIONS = `
  var frame = document.createElement('iframe');
  frame.setAttribute('name', 'sink');
  document.body.appendChild(frame);
  function form(action, target) {
    var made = document.createElement('form');
    made.setAttribute('action', action);
    if (target !== '') { made.setAttribute('target', target); }
    document.body.appendChild(made);
    return made;
  }
  form('https://tracker.test/submit', 'sink').submit();
  window.submitEvents = 0;
  var requested = form('https://tracker.test/request', 'sink');
  requested.addEventListener('submit', function (event) { submitEvents += 1; window.prevented = event.defaultPrevented; });
  requested.requestSubmit();
  var button = document.createElement('button');
  button.setAttribute('formaction', 'https://tracker.test/button');
  var byButton = form('/own-form', 'sink');
  byButton.appendChild(button);
  byButton.requestSubmit(button);
  form('/own-form', 'sink').submit();
  var detached = document.createElement('form');
  detached.setAttribute('action', 'https://tracker.test/detached');
  detached.submit();
  ['', '_top', '_blank', 'no-such-frame'].forEach(function (target) { form('https://tracker.test/navigate', target).submit(); });
`;

test('script mode: a form submitted into a frame by submit(), requestSubmit() or a submit button\'s formaction sends nothing to a blocked action; one that navigates the top page or a new window goes; without blockInScript all go', { skip: skip || false }, async () => {
  const browser = openBrowser();
  browser.run(SUBMISSIONS);
  const navigations = Array(4).fill('form https://tracker.test/navigate');
  assert.deepEqual(network(browser), ['form https://site.example/own-form'].concat(navigations));
  assert.equal(browser.global.submitEvents, 1);
  assert.equal(browser.global.prevented, true);
  const events = await reports(browser);
  assert.deepEqual(events.map((event) => `${event.state} ${event.type} ${event.url}`), [
    'blocked subdocument https://tracker.test/submit',
    'blocked subdocument https://tracker.test/request',
    'blocked subdocument https://tracker.test/button'
  ]);
  const unblocked = openBrowser({ blockInScript: false });
  unblocked.run(SUBMISSIONS);
  assert.deepEqual(network(unblocked), [
    'form https://tracker.test/submit', 'form https://tracker.test/request', 'form https://tracker.test/button',
    'form https://site.example/own-form'
  ].concat(navigations), 'without blockInScript');
});
