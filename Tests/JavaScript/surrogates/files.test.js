'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { repoRoot, surrogateNames, surrogateSource } = require('./page.js');

const names = surrogateNames();
// The surrogates.txt header, written as a comment: `// <domain>/<name> <content type>`.
const headerPattern = /^\/\/ (\S+\/([^\s/]+)) (application\/javascript)$/;

test('there are surrogates', () => {
  assert.ok(names.length >= 21, names.join(' '));
});

for (const name of names) {
  test(`${name}: header, name, strict mode and the characters a script element cannot hold`, () => {
    const source = surrogateSource(name);
    const lines = source.split('\n');
    const header = headerPattern.exec(lines[0]);
    assert.ok(header, `first line is the surrogates.txt header: ${lines[0]}`);
    assert.equal(header[2], name, 'the name in the header is the file name');
    assert.match(source, /^\(function \(\) \{\n {2}'use strict';$/m, 'one strict-mode IIFE');
    assert.doesNotMatch(source, /<\/script/i);
    assert.doesNotMatch(source, /[^\n\x20-\x7e]/, 'ASCII only (so no U+2028, U+2029): nothing for an embedding to escape');
    // A blank line ends a block of surrogates.txt, so a surrogate has none.
    const blank = lines.findIndex((line, index) => index < lines.length - 1 && line.trim() === '');
    assert.equal(blank, -1, `blank line ${blank + 1}`);
    assert.doesNotMatch(source, /\bfetch\(|XMLHttpRequest|sendBeacon|new Image\b|createElement|WebSocket|EventSource|importScripts|\.src\s*=/);
    // ES2017 at most: no optional chaining, nullish coalescing, spread of objects, catch without
    // binding, or the later library calls web views may lack.
    assert.doesNotMatch(source, /\?\.|\?\?|\.\.\.|catch \{|\.flat\(|fromEntries|globalThis|matchAll|replaceAll|\.at\(/);
  });
}

test('every surrogate wrapped as a function body, as the renderer does, passes node --check', () => {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'surrogates-'));
  try {
    for (const name of names) {
      const file = path.join(directory, name);
      fs.writeFileSync(file, '(function () {\n' + surrogateSource(name) + '\n});\n');
      execFileSync(process.execPath, ['--check', file], { stdio: 'pipe' });
    }
  } finally {
    fs.rmSync(directory, { recursive: true, force: true });
  }
});

test('Surrogates/README.md lists every surrogate', () => {
  const readme = fs.readFileSync(path.join(repoRoot, 'Surrogates', 'README.md'), 'utf8');
  for (const name of names) assert.ok(readme.includes('`' + name + '`'), name);
});

test('every surrogate a rule of apple-tds.json names has a file', (t) => {
  const file = path.resolve(repoRoot, '..', 'shared', 'data', 'tds', 'apple-tds.json');
  if (!fs.existsSync(file)) {
    const message = `shared data missing: ${file}`;
    if (process.env.TRACKERLESS_REQUIRE_SHARED_DATA === '1') assert.fail(message);
    t.skip(message);
    return;
  }
  const tds = JSON.parse(fs.readFileSync(file, 'utf8'));
  const referenced = new Set();
  for (const tracker of Object.values(tds.trackers || {})) {
    for (const rule of tracker.rules || []) {
      if (typeof rule.surrogate === 'string') referenced.add(rule.surrogate);
    }
  }
  assert.ok(referenced.size > 0, 'the blocklist names surrogates');
  const missing = [...referenced].filter((name) => !names.includes(name)).sort();
  assert.deepEqual(missing, []);
});
