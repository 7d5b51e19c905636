'use strict';
// document.referrer from blocking.js: the referrer-trimming suite's document.referrer cases
// (top frame and frames, entities, trackers, exceptions), the user allowlist, and other
// documents, which keep the browser's value.

const test = require('node:test');
const assert = require('node:assert/strict');
const { suite, render, jsonFile, openPage, cases } = require('./page.js');

const { inputs, skip, script } = suite('referrer-trimming');

test("the suite's document.referrer cases: all 11", { skip: skip || false }, () => {
  const apiCases = cases('referrer-trimming').filter((test) => 'expectReferrerAPIValue' in test);
  assert.equal(apiCases.length, 11);
  const failures = [];
  for (const test of apiCases) {
    const page = test.frameURL
      ? openPage(script(), { url: test.frameURL, top: test.siteURL, referrer: test.referrerValue })
      : openPage(script(), { url: test.siteURL, referrer: test.referrerValue });
    const value = page.evaluate('document.referrer');
    if (value !== test.expectReferrerAPIValue) { failures.push(`${test.name}: ${JSON.stringify(value)}`); }
  }
  assert.deepEqual(failures, []);
});

test('on a site of the user allowlist the referrer is the browser\'s', { skip: skip || false }, () => {
  const source = render(Object.assign({ allowlist: jsonFile('allowlist.json', ['super.safe1.com']) }, inputs));
  const page = openPage(source, { url: 'https://super.safe1.com/a', referrer: 'https://super.safe2.com/previous.html?old=thing' });
  assert.equal(page.evaluate('document.referrer'), 'https://super.safe2.com/previous.html?old=thing');
});

test('only this document\'s referrer is trimmed; the getter keeps the attribute\'s shape', { skip: skip || false }, () => {
  const page = openPage(script(), { url: 'https://super.safe1.com/a', referrer: 'https://super.safe2.com:8443/p?q=1' });
  assert.equal(page.evaluate('document.referrer'), 'https://super.safe2.com:8443/');
  assert.equal(page.evaluate('Object.getOwnPropertyDescriptor(Document.prototype, "referrer").get.call(new Document())'), '');
  assert.equal(page.evaluate('Object.getOwnPropertyDescriptor(Document.prototype, "referrer").get.name'), 'get referrer');
  assert.equal(page.evaluate('Object.prototype.hasOwnProperty.call(document, "referrer")'), false);
});

test('without the referrer feature the referrer is the browser\'s', { skip: skip || false }, () => {
  const configuration = jsonFile('config.json', { features: {}, unprotectedTemporary: [] });
  const page = openPage(render({ privacyConfig: configuration, tds: inputs.tds }),
    { url: 'https://super.safe1.com/a', referrer: 'https://super.safe2.com/previous.html' });
  assert.equal(page.evaluate('document.referrer'), 'https://super.safe2.com/previous.html');
});
