'use strict';
// The renderer's nesting check against V8: random surrogate sources made of the tokens that
// could fool a bracket counter (brackets, quotes, template literals and substitutions, `/` as
// division, regular expression or comment, keywords before `/`, property names that are
// keywords, line breaks). For every source `trackerless scripts` accepts, V8 must either reject
// the wrapped source as a whole (no escape: nothing of it runs) or parse it as one function
// whose text is exactly `function () {\n<source>\n}`, beside the next member.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const vm = require('node:vm');
const { spawnSync } = require('node:child_process');
const { repoRoot } = require('./page.js');

const cli = process.env.TRACKERLESS_BIN || process.env.TRACKERLESS_CLI || path.join(repoRoot, '.build', 'debug', 'trackerless');

const FRAGMENTS = [
  '{', '}', '(', ')', '[', ']', "'", '"', '`', '${', '/', '//', '/*', '*/', '\n', ' ', 'x', 'a.in', 'in',
  'return', 'typeof', 'if (x)', 'while (x)', ')', '.', ',', ';', '=>', '1', '++', '--', 'await', 'of',
  '\\', '\\n', '[/]', 'function () {', '}, "z": function () {', '})();', '(function(){', '= ', '+', '*'
];

// A small deterministic generator (mulberry32).
function random(seed) {
  return function () {
    seed |= 0; seed = (seed + 0x6D2B79F5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// TRACKERLESS_FUZZ_SOURCES and TRACKERLESS_FUZZ_SEED run a longer or another search.
function bodies(count, seed) {
  const next = random(seed);
  const result = [];
  for (let i = 0; i < count; i++) {
    let body = '';
    const length = 1 + Math.floor(next() * 14);
    for (let j = 0; j < length; j++) { body += FRAGMENTS[Math.floor(next() * FRAGMENTS.length)]; }
    result.push(body.replace(/\n+$/, '').replace(/^\n+/, ''));
  }
  return result.filter((body) => body.trim() !== '' && !body.includes('\n\n'));
}

test('every random source the renderer accepts stays inside its function in V8', (t) => {
  if (!fs.existsSync(cli)) {
    t.skip(`no trackerless executable at ${cli} (build it, or set TRACKERLESS_BIN)`);
    return;
  }
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'surrogates-fuzz-'));
  try {
    const sources = bodies(Number(process.env.TRACKERLESS_FUZZ_SOURCES || 3000), Number(process.env.TRACKERLESS_FUZZ_SEED || 12));
    const directory = path.join(folder, 'surrogates');
    fs.mkdirSync(directory);
    sources.forEach((body, i) => {
      fs.writeFileSync(path.join(directory, `s${i}.js`), `// fuzz.example/s${i}.js application/javascript\n${body}\n`);
    });
    const result = spawnSync(cli, ['scripts', '--surrogates', directory, '--output', path.join(folder, 'out')],
      { encoding: 'utf8', maxBuffer: 1 << 26 });
    const refused = new Set();
    for (const match of result.stderr.matchAll(/\/s(\d+)\.js: line \d+: /g)) { refused.add(Number(match[1])); }
    assert.ok(refused.size > 0 && refused.size < sources.length, `${refused.size} of ${sources.length} refused`);

    let parsed = 0;
    const escapes = [];
    sources.forEach((body, i) => {
      if (refused.has(i)) { return; }
      const text = `({"a": function () {\n${body}\n}, "b": 1})`;
      let script;
      try {
        script = new vm.Script(text);
      } catch (error) {
        if (!(error instanceof SyntaxError)) { throw error; }
        return;
      }
      parsed += 1;
      let value;
      try {
        value = script.runInNewContext({}, { timeout: 100 });
      } catch (error) {
        escapes.push({ body, why: `evaluating the object ran code: ${error.message}` });
        return;
      }
      const keys = Object.keys(value);
      const own = typeof value.a === 'function' ? Function.prototype.toString.call(value.a) : null;
      if (keys.join(',') !== 'a,b' || own !== `function () {\n${body}\n}`) { escapes.push({ body, keys, own }); }
    });
    t.diagnostic(`${sources.length} sources, ${refused.size} refused, ${parsed} accepted ones parse in V8`);
    assert.ok(parsed > 20, `only ${parsed} accepted sources parse`);
    assert.deepEqual(escapes, []);
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
});
