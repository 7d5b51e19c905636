'use strict';
// Surrogates stay inside the function the renderer wraps them in: every blocking.js that
// `trackerless scripts` writes parses, its surrogates object holds exactly the surrogates of the
// render, each one's function text is `function () {\n<source>\n}`, and evaluating the script runs
// no surrogate code. Sources that would reach outside their function are refused (exit 1, file
// and line). Run on Surrogates/ and on DuckDuckGo's surrogates files of the shared data.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const vm = require('node:vm');
const { spawnSync } = require('node:child_process');
const { repoRoot } = require('./page.js');

const cli = process.env.TRACKERLESS_BIN || process.env.TRACKERLESS_CLI || path.join(repoRoot, '.build', 'debug', 'trackerless');
const referenceTests = path.resolve(repoRoot, '..', 'shared', 'data', 'privacy-reference-tests');
const sharedFiles = [
  path.join(referenceTests, 'tracker-radar-tests', 'TR-domain-matching', 'surrogates.txt'),
  path.join(referenceTests, 'request-blocklist', 'surrogates-reference.txt'),
  path.join(referenceTests, 'click-to-load', 'surrogates_reference.txt')
];

function render(surrogates) {
  const output = fs.mkdtempSync(path.join(os.tmpdir(), 'surrogates-nesting-'));
  try {
    const args = ['scripts', '--templates', path.join(repoRoot, 'JSTemplates'), '--surrogates', surrogates,
      '--output', path.join(output, 'out')];
    const result = spawnSync(cli, args, { encoding: 'utf8' });
    if (result.status !== 0) { return { status: result.status, stderr: result.stderr }; }
    const read = (name) => fs.readFileSync(path.join(output, 'out', name), 'utf8');
    return { status: 0, stderr: result.stderr, blocking: read('blocking.js'), index: read('surrogates.txt') };
  } finally {
    fs.rmSync(output, { recursive: true, force: true });
  }
}

// name -> source, from a surrogates.txt (blank lines of a source are left out of it).
function indexSources(index) {
  const sources = new Map();
  for (const block of index.split(/\n\s*\n/)) {
    const lines = block.split('\n').filter((line) => line !== '' && !line.startsWith('#'));
    if (lines.length === 0) { continue; }
    sources.set(lines[0].split(' ')[0].split('/').pop(), lines.slice(1).join('\n'));
  }
  return sources;
}

const withoutBlankLines = (text) => text.split('\n').filter((line) => line.trim() !== '').join('\n');

// Evaluates blocking.js and returns the surrogates object its outer function receives.
function surrogatesOf(blocking) {
  const head = '(function (surrogates) {\n';
  assert.ok(blocking.startsWith(head), 'blocking.js starts with its outer function');
  const instrumented = head + '  __surrogates(surrogates);\n' + blocking.slice(head.length);
  let received = null;
  const sandbox = { __surrogates: (value) => { received = value; } };
  sandbox.window = sandbox;
  vm.runInContext(instrumented, vm.createContext(sandbox), { filename: 'blocking.js' });
  return { surrogates: received, globals: Object.keys(sandbox).filter((key) => key !== '__surrogates' && key !== 'window') };
}

function checkRender(t, surrogatesPath) {
  const result = render(surrogatesPath);
  assert.equal(result.status, 0, result.stderr);
  assert.doesNotMatch(result.stderr, /skipped/);
  const sources = indexSources(result.index);
  assert.ok(sources.size > 0);
  const invalid = [...sources].filter(([, source]) => {
    try { new vm.Script(`(function () {\n${source}\n})`); return false; } catch (e) { return true; }
  }).map(([name]) => name);
  if (invalid.length > 0) {
    // Balanced but not JavaScript (the click-to-load reference's `() => ();`): accepted, since the
    // renderer checks nesting, not syntax; such a blocking.js cannot parse, and is not checked.
    assert.throws(() => new vm.Script(result.blocking), SyntaxError);
    t.diagnostic(`not JavaScript, so not checked further: ${invalid.join(', ')}`);
    return;
  }
  assert.doesNotThrow(() => new vm.Script(result.blocking, { filename: 'blocking.js' }));
  const { surrogates, globals } = surrogatesOf(result.blocking);
  assert.deepEqual(globals, [], 'evaluating blocking.js ran no surrogate code');
  assert.deepEqual(Object.keys(surrogates).sort(), [...sources.keys()].sort());
  for (const [name, source] of sources) {
    const text = Function.prototype.toString.call(surrogates[name]);
    assert.equal(withoutBlankLines(text), withoutBlankLines(`function () {\n${source}\n}`), name);
  }
}

function available(t) {
  if (!fs.existsSync(cli)) {
    t.skip(`no trackerless executable at ${cli} (build it, or set TRACKERLESS_BIN)`);
    return false;
  }
  return true;
}

test('Surrogates/: blocking.js parses and each surrogate is exactly its function', (t) => {
  if (available(t)) { checkRender(t, path.join(repoRoot, 'Surrogates')); }
});

for (const file of sharedFiles) {
  test(`${path.relative(referenceTests, file)}: accepted; blocking.js parses and each surrogate is exactly its function`, (t) => {
    if (!available(t)) { return; }
    if (!fs.existsSync(file)) {
      t.skip(`shared data not found: ${file}`);
      return;
    }
    checkRender(t, file);
  });
}

test('a surrogate that escapes its function is refused with file and line, and nothing is written', (t) => {
  if (!available(t)) { return; }
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'surrogates-escape-'));
  try {
    const cases = [
      ['sibling.txt', 'a.example/a.js application/javascript\nwindow.a = 1;\n}, "z.js": function () {\n  window.escaped = true;\n', 3],
      ['unparsable.txt', 'a.example/a.js application/javascript\n})();window.escaped = true;(function(){\n', 2]
    ];
    for (const [name, text, line] of cases) {
      const file = path.join(folder, name);
      fs.writeFileSync(file, text);
      const result = render(file);
      assert.equal(result.status, 1, name);
      assert.ok(result.stderr.includes(`${file}: line ${line}: "}" closes a bracket this code did not open`), result.stderr);
    }
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
});
