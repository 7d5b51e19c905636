'use strict';
// The rules' expressions in blocking.js: compiled programs (the resolver's Thompson NFA, see
// RuleProgram.swift) run without backtracking. Rules on which a backtracking engine
// (the JavaScript RegExp the script used to compile them into) takes exponential or polynomial
// time get the right answer at once; ordinary rules answer as the Swift resolver does.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const vm = require('node:vm');
const helpers = require('./helpers.js');
const hostile = require('../hostile-page.js');

const skip = helpers.missing([]);
const SITE = 'https://site.example/';
// Each decision runs under this bound, so that a script that backtracks fails the test rather
// than hanging it (a RegExp takes hours on these URLs); the programs take milliseconds.
const DECISION_TIMEOUT_MS = 10000;

// One tracker per rule, `t<index>.test`, ignored by default: a decision blocks exactly when its
// one rule matches.
function inputs(rules) {
  const trackers = {};
  const domains = {};
  rules.forEach((rule, index) => {
    const host = `t${index}.test`;
    trackers[host] = { domain: host, owner: { name: 'Owner', displayName: 'Owner' }, default: 'ignore', rules: [{ rule }] };
    domains[host] = 'Owner';
  });
  const tds = { trackers, entities: { Owner: { domains: Object.keys(domains), displayName: 'Owner' } }, domains, cnames: {} };
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'trackerless-rule-programs-')), 'tds.json');
  fs.writeFileSync(file, JSON.stringify(tds));
  return { tds: file };
}

// The decision, run in the page's context under DECISION_TIMEOUT_MS (vm's timeout interrupts a
// RegExp that backtracks; a timer could not, the call being synchronous).
function decideWithin(page, api, url) {
  page.global.__decide = api.decide;
  page.global.__request = [url, SITE, 'script'];
  try {
    return vm.runInContext('__decide(__request[0], __request[1], __request[2])', page.context, { timeout: DECISION_TIMEOUT_MS });
  } catch (error) {
    throw new Error(`${url.length}-character URL: ${error.message}`);
  }
}

test('rules a backtracking RegExp takes exponential or polynomial time on get the right answer at once', { skip: skip || false }, () => {
  const cases = [
    // [rule, URL path, whether it matches]
    ['(a+)+$', `/${'a'.repeat(40)}!`, false],
    ['(a+)+$', `/x?${'a'.repeat(40)}`, true],
    ['(a|aa)*b', `/${'a'.repeat(60)}!`, false],
    ['(a|aa)*b', `/${'a'.repeat(60)}b`, true],
    ['(a|aa)*$', `/${'a'.repeat(60)}!`, true], // the empty match at the end
    ['(.*a){20}', `/${'ax'.repeat(19)}${'x'.repeat(100)}`, false],
    ['(.*a){20}', `/${'ax'.repeat(20)}${'x'.repeat(100)}`, true],
    ['(.*.*){12}!', `/${'x'.repeat(100)}`, false],
    ['a.*b.*c.*d', `/${'abc'.repeat(2000)}`, false],
    ['a.*b.*c.*d', `/${'abc'.repeat(2000)}d`, true],
    ['(x+x+)+y', `/${'x'.repeat(50)}`, false]
  ];
  const rules = cases.map((entry) => entry[0]);
  const options = inputs(rules);
  const { api, page } = helpers.runBlocking(helpers.renderBlocking(options));
  const requests = [];
  cases.forEach(([rule, requestPath, matches], index) => {
    const url = `https://t${index}.test${requestPath}`;
    const decision = decideWithin(page, api, url);
    assert.equal(decision.reason, matches ? 'matched rule - block' : 'default ignore', `${rule} on ${url.length} characters`);
    requests.push({ url, site: SITE, type: 'script' });
  });
  // The Swift resolver (linear too) gives the same answers.
  assert.deepEqual(helpers.compareWithSwift(requests, options, api), []);
});

test('ordinary rules answer as the Swift resolver does', { skip: skip || false }, (t) => {
  const rules = [
    '[0-9]{2,3}x', // a class and {n,m}
    '\\/ads?\\/', // escapes and ?
    '^https://t2\\.test/only$', // anchors
    '(foo|bar)+baz', // alternation in a repeated group
    '[^a-z]\\.js', // the resolver folds case after negating: [^a-z] holds every letter
    '\\d+\\.gif\\?', // \d, +, an escaped ?
    '\\w{4}-\\w', // \w, {n}
    '\\.(png|jpe?g)$',
    'track(er)?\\.php\\?id=\\d{1,4}(&|$)',
    'a.b', // .
    '\\S+\\s',
    'PIXEL', // case-insensitive
    'q{0}end', // a quantifier that removes its atom
    '^http:', // only plain http
    '[\\-_.]{2}',
    '(?:a|b|c){3,}d', // {n,}
    '\\x41bc', // the resolver reads \x as x
    '$x', // never: nothing follows the end
    '[[\\]]', // brackets in a class
    'img\\.(?:png|gif)?\\?', // an optional group
    '(?:)|zzz', // an empty alternative: every URL
    '/[a-z]+/[a-z]+\\.js'
  ];
  const paths = [
    '/', '/12x', '/123x/', '/1x', '/ad/', '/ads/', '/adss/', '/only', '/only/', '/foobarbaz', '/foobaz', '/baz',
    '/X.js', '/a.js', '/45.gif?', '/45.gif', '/abcd-e', '/abc-e', '/img.png', '/img.JPG', '/img.jpeg?x',
    '/tracker.php?id=123', '/track.php?id=12345', '/track.php?id=1&x', '/a-b', '/a_b', '/PiXeL', '/end',
    '/x41bc', '/X41BC', '/__x', '/a.b', '/aacd', '/abd', '/[x]', '/img.?', '/img.gif?', '/lib/app.js', '/LIB/A.JS',
    '/%20x', '/q?x=1&y=2'
  ];
  const options = inputs(rules);
  const { api } = helpers.runBlocking(helpers.renderBlocking(options));
  const requests = [];
  rules.forEach((rule, index) => {
    for (const scheme of ['https', 'http']) {
      for (const requestPath of paths) { requests.push({ url: `${scheme}://t${index}.test${requestPath}`, site: SITE, type: 'script' }); }
    }
  });
  const mismatches = helpers.compareWithSwift(requests, options, api);
  // Each rule both matches and does not match some of the URLs (but `$x`, `\S+\s`, `(?:)|zzz`),
  // so that the comparison says something about every one.
  const matched = rules.map(() => 0);
  for (const request of requests) {
    const decision = api.decide(request.url, request.site, request.type);
    if (decision.reason === 'matched rule - block') { matched[+/^https?:\/\/t(\d+)/.exec(request.url)[1]] += 1; }
  }
  const perRule = requests.length / rules.length;
  const oneSided = rules.filter((rule, index) => (matched[index] === 0 || matched[index] === perRule) &&
    !['$x', '\\S+\\s', '(?:)|zzz'].includes(rule));
  t.diagnostic(`${requests.length} decisions, ${mismatches.length} mismatches; matches per rule ${JSON.stringify(matched)}`);
  assert.deepEqual(mismatches.slice(0, 20), []);
  assert.deepEqual(oneSided, []);
});

test('a malformed rule program never matches', { skip: skip || false }, () => {
  const { api } = helpers.runBlocking(helpers.renderBlocking(inputs(['a'])));
  const url = 'https://t0.test/abc';
  assert.equal(api.ruleProgram('abc')(url), true);
  assert.equal(api.ruleProgram('abd')(url), false);
  assert.equal(api.ruleProgram('L1;aaE')('https://t0.test/xa'), true);
  // Malformed: an unknown capital, a split without its ;, a state past the end, a short class,
  // a start past the end, a literal longer than the program.
  for (const program of ['aQ', 'S1;', 'aJ9;', 'C00', 'G5;a', 'L9;ab']) {
    assert.equal(api.ruleProgram(program)(url), false, program);
  }
});

test('a hostile page sees nothing of the rule programs at work, and does not change their answers', { skip: skip || false }, () => {
  const rules = ['(a+)+$', '[0-9]{2,3}x', '^https://t2\\.test/(ads?|px)/.*\\.gif$', 'pixel\\.(png|gif)'];
  const urls = ['https://t0.test/aaa', 'https://t0.test/aab', 'https://t1.test/12x', 'https://t1.test/1x',
    'https://t2.test/ads/a.gif', 'https://t2.test/ad/a.gifx', 'https://t3.test/PIXEL.GIF', 'https://t3.test/pixel.jpg',
    'https://t0.test/\u212a\u0130aaa'];
  const render = helpers.renderBlocking(inputs(rules));
  const expected = (() => {
    const { api } = helpers.runBlocking(render);
    return urls.map((url) => api.decide(url, SITE, 'script').reason);
  })();
  const page = helpers.createPage();
  const run = (code) => vm.runInContext(code, page.context);
  hostile.install(run, 'accessors');
  const { api } = helpers.runBlocking(render, page);
  hostile.install(run, 'all');
  // And a typed array's length, which a page can replace too.
  run(`(function () {
    var typedArray = Object.getPrototypeOf(Int32Array.prototype);
    var length = Object.getOwnPropertyDescriptor(typedArray, 'length').get;
    Object.defineProperty(typedArray, 'length', { get: function () { __hostileRecord(this); return Reflect.apply(length, this, []); }, configurable: true });
  })()`);
  const before = hostile.seen(run).length;
  const answers = urls.map((url) => api.decide(url, SITE, 'script').reason);
  assert.equal(hostile.seen(run).length, before, 'a hook ran while the rules were matched');
  assert.deepEqual(answers, expected);
  assert.deepEqual(expected.map((reason) => reason === 'matched rule - block'), [true, false, true, false, true, false, true, false, true]);
});
