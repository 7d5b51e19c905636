'use strict';
// URLs page script gives elements other than script, img and iframe `src` (a link's href, a
// srcset, media src, a poster, an object's data, an embed's or image button's src, an SVG image's
// href), through their properties, setAttribute, setAttributeNS and attribute nodes: in script
// mode a URL the resolver blocks is withheld (the element keeps its attribute, reaches no network,
// and is reported blocked); other URLs are written as the page gave them. Without blockInScript
// (a content blocker blocks) every write goes through untouched.

const test = require('node:test');
const assert = require('node:assert/strict');
const { openBrowser, addBase, reports, helpers, network, stated } = require('./fake-browser.js');

const skip = helpers.missing([]);

const PROPERTIES = `
  window.seen = [];
  var sheet = document.createElement('link');
  sheet.rel = 'stylesheet';
  sheet.onerror = function () { seen.push('link error'); };
  sheet.href = 'https://tracker.test/sheet.css';
  var preload = document.createElement('link');
  preload.rel = 'preload';
  preload.as = 'image';
  preload.href = 'https://tracker.test/preload.gif';
  var icon = document.createElement('link');
  icon.rel = 'icon';
  icon.href = 'https://tracker.test/favicon.ico';
  var hint = document.createElement('link');
  hint.rel = 'preload';
  hint.as = 'image';
  hint.imageSrcset = 'https://tracker.test/hint.png 2x';
  var later = document.createElement('link');
  later.href = 'https://tracker.test/later.js';
  later.rel = 'prefetch';
  var own = document.createElement('link');
  own.rel = 'stylesheet';
  own.href = 'https://cdn.example/own.css';
  new Image().srcset = 'https://cdn.example/a.jpg 1x, https://tracker.test/b.jpg 2x';
  document.createElement('source').srcset = 'https://tracker.test/source.jpg';
  document.createElement('source').src = 'https://tracker.test/source.mp4';
  var video = document.createElement('video');
  video.onerror = function () { seen.push('video error'); };
  video.src = 'https://tracker.test/video.mp4';
  video.poster = 'https://tracker.test/poster.jpg';
  document.createElement('audio').src = 'https://tracker.test/audio.mp3';
  document.createElement('object').data = 'https://tracker.test/flash.swf';
  document.createElement('embed').src = 'https://tracker.test/embed.swf';
  var button = document.createElement('input');
  button.type = 'image';
  button.src = 'https://tracker.test/button.png';
  document.createElement('track').src = 'https://tracker.test/captions.vtt';
  document.createElementNS('http://www.w3.org/2000/svg', 'image').href.baseVal = 'https://tracker.test/svg.png';
  document.createElement('video').src = 'https://cdn.example/own.mp4';
`;

test('script mode: a link\'s href, srcset, media src, poster, object data, embed and image button src and an SVG image\'s href set as properties load only what is not blocked', { skip: skip || false }, async () => {
  const browser = openBrowser();
  browser.run(PROPERTIES);
  const events = await reports(browser);
  assert.deepEqual(network(browser), ['link.href https://cdn.example/own.css', 'video.src https://cdn.example/own.mp4']);
  assert.deepEqual(stated(events), [
    'blocked stylesheet https://tracker.test/sheet.css',
    'blocked image https://tracker.test/preload.gif',
    'blocked image https://tracker.test/favicon.ico',
    'blocked image https://tracker.test/hint.png',
    'blocked image https://tracker.test/b.jpg',
    'blocked image https://tracker.test/source.jpg',
    'blocked media https://tracker.test/source.mp4',
    'blocked media https://tracker.test/video.mp4',
    'blocked image https://tracker.test/poster.jpg',
    'blocked media https://tracker.test/audio.mp3',
    'blocked object https://tracker.test/flash.swf',
    'blocked object https://tracker.test/embed.swf',
    'blocked image https://tracker.test/button.png',
    'blocked media https://tracker.test/captions.vtt',
    'blocked image https://tracker.test/svg.png'
  ]);
  // A load the content blocker stops fails: the page's error handlers run.
  assert.deepEqual([...browser.global.seen].sort(), ['link error', 'video error']);
  // The withheld URLs are not the elements' (the prefetch's rel, set after, loads nothing).
  assert.equal(browser.run('sheet.getAttribute("href")'), null);
  assert.equal(browser.run('later.getAttribute("href")'), null);
  assert.equal(browser.run('own.href'), 'https://cdn.example/own.css');

  const unblocked = openBrowser({ blockInScript: false });
  unblocked.run(PROPERTIES);
  // Every one of them, and the prefetch's once its rel loads it.
  assert.equal(network(unblocked).filter((line) => line.includes('tracker.test')).length, 16);
});

test('script mode: setAttribute, setAttributeNS (xlink:href, a null namespace) and attribute nodes (value, nodeValue, textContent, setAttributeNode, setNamedItem)', { skip: skip || false }, async () => {
  const browser = openBrowser();
  browser.run(`
    document.createElement('img').setAttribute('srcset', 'https://tracker.test/set.jpg 2x');
    var svg = document.createElementNS('http://www.w3.org/2000/svg', 'image');
    svg.setAttributeNS('http://www.w3.org/1999/xlink', 'xlink:href', 'https://tracker.test/xlink.png');
    svg.setAttributeNS('http://www.w3.org/1999/xlink', 'xl:href', 'https://tracker.test/prefixed.png');
    svg.setAttribute('href', 'https://tracker.test/svg-href.png');
    document.createElement('img').setAttributeNS(null, 'src', 'https://tracker.test/namespace.gif');
    document.createElement('video').setAttribute('poster', 'https://tracker.test/attribute-poster.jpg');
    var link = document.createElement('link');
    link.setAttribute('rel', 'stylesheet');
    link.setAttribute('HREF', 'https://tracker.test/attribute.css');
    var object = document.createElement('object');
    var data = document.createAttribute('data');
    data.value = 'https://tracker.test/node.swf';
    object.setAttributeNode(data);
    var embed = document.createElement('embed');
    embed.setAttribute('src', 'https://cdn.example/own.swf');
    embed.getAttributeNode('src').value = 'https://tracker.test/value.swf';
    embed.getAttributeNode('src').nodeValue = 'https://tracker.test/node-value.swf';
    embed.getAttributeNode('src').textContent = 'https://tracker.test/text-content.swf';
    var source = document.createElement('source');
    var named = document.createAttribute('src');
    named.value = 'https://tracker.test/named.mp4';
    source.attributes.setNamedItem(named);
    document.createElement('div').setAttribute('data-src', 'https://tracker.test/not-a-load');
  `);
  const events = await reports(browser);
  assert.deepEqual(network(browser), ['embed.src https://cdn.example/own.swf']);
  assert.equal(browser.run('embed.getAttribute("src")'), 'https://cdn.example/own.swf');
  assert.deepEqual(browser.dom.log.sources.map((source) => source.url), ['https://cdn.example/own.swf']);
  assert.deepEqual(stated(events), [
    'blocked image https://tracker.test/set.jpg',
    'blocked image https://tracker.test/xlink.png',
    'blocked image https://tracker.test/prefixed.png',
    'blocked image https://tracker.test/svg-href.png',
    'blocked image https://tracker.test/namespace.gif',
    'blocked image https://tracker.test/attribute-poster.jpg',
    'blocked stylesheet https://tracker.test/attribute.css',
    'blocked object https://tracker.test/node.swf',
    'blocked object https://tracker.test/value.swf',
    'blocked object https://tracker.test/node-value.swf',
    'blocked object https://tracker.test/text-content.swf',
    'blocked media https://tracker.test/named.mp4'
  ]);
  assert.equal(browser.run('document.createElement("div").getAttribute("data-src")'), null);
});

test('script mode: relative URLs resolve against <base href>; a page\'s toString is read once, and what it gave is what is written', { skip: skip || false }, async () => {
  const browser = openBrowser({ before: (page) => addBase(page, 'https://tracker.test/') });
  browser.run(`
    var link = document.createElement('link');
    link.rel = 'stylesheet';
    link.href = 'relative.css';
    var calls = 0;
    var shifty = { toString: function () { calls += 1; return calls === 1 ? 'https://cdn.example/first.png' : 'https://tracker.test/second.png'; } };
    document.createElement('video').poster = shifty;
  `);
  const events = await reports(browser);
  assert.deepEqual(network(browser), ['video.poster https://cdn.example/first.png']);
  assert.equal(browser.run('calls'), 1);
  assert.deepEqual(stated(events), ['blocked stylesheet https://tracker.test/relative.css']);
});

test('script mode: a preconnect or dns-prefetch hint to a tracker, added by script or in markup, has no href (the connection it opens is no request to report)', { skip: skip || false }, async () => {
  const browser = openBrowser();
  browser.run(`
    var hint = document.createElement('link');
    hint.rel = 'preconnect';
    hint.href = 'https://tracker.test';
    var own = document.createElement('link');
    own.rel = 'preconnect';
    own.href = 'https://cdn.example';
    var div = document.createElement('div');
    div.innerHTML = '<link rel="dns-prefetch" href="https://tracker.test"><link rel="preconnect" href="https://cdn.example">' +
      '<img src="https://tracker.test/pixel.gif">';
  `);
  const events = await reports(browser);
  assert.equal(browser.run('hint.getAttribute("href")'), null);
  assert.equal(browser.run('own.getAttribute("href")'), 'https://cdn.example');
  assert.equal(browser.run('div.innerHTML'), '<link rel="dns-prefetch"><link rel="preconnect" href="https://cdn.example"><img>');
  assert.deepEqual(stated(events), ['blocked image https://tracker.test/pixel.gif']);
});
