'use strict';
// What the tests of a <style>'s text share: the network and the reports as lines, and the page's
// helpers (`T` the tracker, `C` a first party's CDN; `styleOf(parts)` a style in the head with
// text nodes of `parts`, `text(data)` a text node).

const lines = require('./fake-browser.js');

const network = lines.network;
// Sorted: the order of one change's reports is not what these tests are about.
const stated = (events) => lines.stated(events).sort();
const setup = `
  var T = 'https://tracker.test/', C = 'https://cdn.example/';
  function styleOf(parts) {
    var style = document.head.appendChild(document.createElement('style'));
    for (var i = 0; i < parts.length; i++) { style.appendChild(document.createTextNode(parts[i])); }
    return style;
  }
  function text(data) { return document.createTextNode(data); }
`;

module.exports = { network, stated, setup };
