'use strict';
// The inference.js that `trackerless scripts` renders from this repository's JSTemplates, for
// each bridge: it parses, and it behaves in the fake page as the template does under the
// test-side filler. blocking.js is replaced by a stand-in that only takes its placeholders, so
// that this test follows inference.js and the bridges alone.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execFileSync, spawnSync } = require('node:child_process');
const { createPage, repoRoot } = require('./fake-page.js');

const BLOCKING_STAND_IN = "(function () {\n  'use strict';\n  var data = $TRACKER_DATA$;\n" +
  "  var surrogates = $SURROGATES$;\n  var settings = $SETTINGS$;\n  var secret = $SECRET$;\n" +
  "  var bridge = $BRIDGE$;\n  var queue = $MESSAGE_QUEUE$;\n" +
  "  void data; void surrogates; void settings; void secret; void bridge; void queue;\n})();\n";

function templatesDirectory(dir) {
  const templates = path.join(dir, 'templates');
  fs.mkdirSync(path.join(templates, 'bridges'), { recursive: true });
  fs.mkdirSync(path.join(templates, 'parts'), { recursive: true });
  fs.copyFileSync(path.join(repoRoot, 'JSTemplates', 'inference.js'), path.join(templates, 'inference.js'));
  fs.copyFileSync(path.join(repoRoot, 'JSTemplates', 'parts', 'message-queue.js'), path.join(templates, 'parts', 'message-queue.js'));
  for (const bridge of fs.readdirSync(path.join(repoRoot, 'JSTemplates', 'bridges'))) {
    fs.copyFileSync(path.join(repoRoot, 'JSTemplates', 'bridges', bridge), path.join(templates, 'bridges', bridge));
  }
  fs.writeFileSync(path.join(templates, 'blocking.js'), BLOCKING_STAND_IN);
  return templates;
}

const binary = process.env.TRACKERLESS_BIN || path.join(repoRoot, '.build', 'debug', 'trackerless');
const SECRET = 'c0ffee00c0ffee00c0ffee00c0ffee00';

// Why the rendered script cannot be tested here, or null.
function skipReason() {
  if (!fs.existsSync(binary)) {
    return `no trackerless binary at ${binary} (swift build --product trackerless, or set TRACKERLESS_BIN)`;
  }
  const help = spawnSync(binary, ['scripts', '--help'], { encoding: 'utf8' });
  if (help.status !== 0) {
    return `${binary} has no scripts command (built before it existed)`;
  }
  return null;
}

const reason = skipReason();

function render(bridge, extra) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trackerless-scripts-'));
  const output = path.join(dir, 'out');
  try {
    execFileSync(binary, ['scripts', '--templates', templatesDirectory(dir), '--bridge', bridge, '--secret', SECRET,
      '--output', output].concat(extra || []), { stdio: 'pipe' });
    const file = path.join(output, 'inference.js');
    execFileSync(process.execPath, ['--check', file], { stdio: 'pipe' });
    return fs.readFileSync(file, 'utf8');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function rendered(bridge, options, extra) {
  const page = createPage(Object.assign({ bridge }, options));
  page.source = render(bridge, extra);
  return page.start();
}

for (const bridge of ['webkit', 'android', 'webview2']) {
  test(`rendered inference.js, ${bridge} bridge: parses, fills every placeholder, posts protocol v1 with the secret`,
    { skip: reason || false }, () => {
      const page = rendered(bridge, { url: 'https://site.example/' });
      assert.doesNotMatch(page.source, /\$(SETTINGS|SECRET|BRIDGE|MESSAGE_QUEUE)\$/);
      page.fire(page.append('script', { src: 'https://tracker.example/t.js' }), 'error');
      page.append('iframe', { src: 'https://frames.example/f' });
      page.entries([{ name: 'https://cdn.example/a.png', initiatorType: 'img' }]);
      page.advance(100);
      page.fireWindow('pagehide');
      if (bridge === 'android') {
        assert.ok(page.received.every((r) => typeof r.raw === 'string'));
      } else {
        assert.ok(page.received.every((r) => typeof r.raw === 'object'));
      }
      const messages = page.messages();
      assert.equal(messages.length, 2);
      assert.deepEqual(messages[0], {
        trackerless: 1,
        secret: SECRET,
        script: 'inference',
        page: { id: messages[0].page.id, url: 'https://site.example/', frame: 'https://site.example/', isTopFrame: true },
        seq: 0,
        events: [
          { kind: 'request', url: 'https://tracker.example/t.js', type: 'script', state: 'failed' },
          { kind: 'request', url: 'https://cdn.example/a.png', type: 'image', state: 'loaded' }
        ]
      });
      assert.deepEqual(messages[1].events, [
        { kind: 'request', url: 'https://frames.example/f', type: 'subdocument', state: 'pending' }
      ]);
    });
}

test('rendered inference.js, none bridge: runs and posts nothing', { skip: reason || false }, () => {
  const page = rendered('none', {});
  page.entries([{ name: 'https://cdn.example/a.png', initiatorType: 'img' }]);
  page.advance(1000);
  assert.equal(page.received.length, 0);
});

test('rendered inference.js follows --handler and --batch-interval', { skip: reason || false }, () => {
  for (const bridge of ['webkit', 'android']) {
    const page = rendered(bridge, { settings: { handler: 'stats' } }, ['--handler', 'stats', '--batch-interval', '250']);
    page.entries([{ name: 'https://cdn.example/a.png', initiatorType: 'img' }]);
    page.advance(249);
    assert.equal(page.received.length, 0, bridge);
    page.advance(1);
    assert.equal(page.messages().length, 1, bridge);
  }
});
