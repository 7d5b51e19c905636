'use strict';
// Cross-check with the Swift renderer: `trackerless scripts` reads Surrogates/ with no warning
// and its surrogates.txt holds each file as it is, less the comment of the header line.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { repoRoot, surrogateNames, surrogateSource } = require('./page.js');

const cli = process.env.TRACKERLESS_BIN || process.env.TRACKERLESS_CLI || path.join(repoRoot, '.build', 'debug', 'trackerless');

test('trackerless scripts embeds every surrogate and writes them into surrogates.txt unchanged', (t) => {
  if (!fs.existsSync(cli)) {
    t.skip(`no trackerless executable at ${cli} (build it, or set TRACKERLESS_BIN)`);
    return;
  }
  const output = fs.mkdtempSync(path.join(os.tmpdir(), 'surrogates-render-'));
  try {
    const args = ['scripts', '--surrogates', path.join(repoRoot, 'Surrogates'), '--output', path.join(output, 'out')];
    const result = spawnSync(cli, args, { encoding: 'utf8' });
    if (result.status !== 0 && /unknown command "scripts"/.test(result.stderr)) {
      t.skip(`${cli} has no scripts command (an older build)`);
      return;
    }
    assert.equal(result.status, 0, result.stderr);
    const skipped = result.stderr.split('\n').filter((line) => /Surrogates\/|skipped/.test(line));
    assert.deepEqual(skipped, [], 'no surrogate file skipped');
    const index = fs.readFileSync(path.join(output, 'out', 'surrogates.txt'), 'utf8');
    const blocks = new Map();
    for (const block of index.split(/\n\s*\n/)) {
      const lines = block.split('\n').filter((line) => line !== '' && !(blocks.size === 0 && line.startsWith('#')));
      if (lines.length === 0) continue;
      const name = lines[0].split(' ')[0].split('/').pop();
      blocks.set(name, lines.join('\n'));
    }
    const names = surrogateNames();
    assert.deepEqual([...blocks.keys()].sort(), names);
    for (const name of names) {
      const expected = surrogateSource(name).replace(/^\/\/ /, '').replace(/\n+$/, '');
      assert.equal(blocks.get(name), expected, name);
    }
  } finally {
    fs.rmSync(output, { recursive: true, force: true });
  }
});
