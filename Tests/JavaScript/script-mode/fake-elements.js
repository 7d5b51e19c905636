'use strict';
// The fake browser's elements that load a URL from an attribute other than script, img and iframe
// `src`, and its styles: what blocking.js in script mode must stop before the browser sees it.
// Each write the browser itself makes (an element's property, the browser's setAttribute under
// any wrapper of the page's, setAttributeNS, an attribute node, a style declaration, a style
// sheet, the text of a <style>) records the loads it starts in `network`, as {url, type} with
// the type `element.attribute` (`link.href`, `img.srcset`, `video.poster`…) or `css` for a
// url() or @import of a style:
//
// - <link href> (by rel: stylesheet, preload, prefetch, modulepreload, icon; a rel set later
//   loads the href it has), `imagesrcset`; `srcset` of img and source; src of source, video,
//   audio, track, embed, frame, input type=image; video `poster`; object `data`; body
//   `background`; SVG <image> `href` and `xlink:href` (its `href.baseVal` too);
// - attribute nodes: document.createAttribute, getAttributeNode, setAttributeNode(NS), the
//   attributes map's setNamedItem(NS), an attached node's value, nodeValue and textContent;
// - element.style (cssText, setProperty, backgroundImage, background-image, listStyleImage,
//   cursor, color), element.style = text, the `style` attribute; CSSStyleSheet's insertRule,
//   replace and replaceSync; CSSGroupingRule's insertRule; a <style>'s text (textContent,
//   innerText, innerHTML, appendChild/insertBefore of a text node, append of a string, a text
//   node's data, nodeValue or textContent once it is the style's).
//
// data: URLs reach no network and are not recorded.

const CSS_URL = /url\(\s*(?:"([^"]*)"|'([^']*)'|([^)\s]*))\s*\)|@import\s*(?:"([^"]*)"|'([^']*)')/gi;
const LOADING_RELS = /(?:^|\s)(?:stylesheet|preload|prefetch|modulepreload|[a-z-]*icon)(?:\s|$)/i;
const XLINK = 'http://www.w3.org/1999/xlink';
// The attributes whose writes load, by element name.
const LOADS = {
  IMG: ['srcset'], SOURCE: ['src', 'srcset'], VIDEO: ['src', 'poster'], AUDIO: ['src'], TRACK: ['src'], EMBED: ['src'],
  FRAME: ['src'], OBJECT: ['data'], BODY: ['background'], image: ['href', 'xlink:href']
};

function install({ g, dom, network, classes, HTMLElement, baseSetAttribute }) {
  const { Node, Element } = g;
  const base = () => dom.document.baseURI;
  const record = (value, type) => {
    const url = new URL(String(value).trim(), base()).href;
    if (!url.startsWith('data:')) { network.push({ url, type }); }
  };
  function recordCSS(text) {
    CSS_URL.lastIndex = 0;
    let match;
    while ((match = CSS_URL.exec(String(text))) !== null) {
      const url = [1, 2, 3, 4, 5].map((index) => match[index]).find((value) => value !== undefined);
      if (url !== '') { record(url.replace(/\\/g, ''), 'css'); }
    }
  }
  const firstCandidates = (srcset) => srcset.split(',').map((candidate) => candidate.trim().split(/\s+/)[0]).filter(Boolean);

  // What the browser loads when an attribute of `element` becomes `value`.
  function loadAttribute(element, name, value) {
    const attribute = name.toLowerCase();
    const tag = element.nodeName;
    if (attribute === 'style') { recordCSS(value); return; }
    const label = `${tag.toLowerCase()}.${attribute === 'xlink:href' ? 'href' : attribute}`;
    if (tag === 'LINK') {
      if (!LOADING_RELS.test(element.getAttribute('rel') || '')) { return; }
      if (attribute === 'href') { record(value, label); }
      if (attribute === 'imagesrcset') { for (const url of firstCandidates(value)) { record(url, label); } }
      if (attribute === 'rel' && element.getAttribute('href') !== null) { record(element.getAttribute('href'), 'link.href'); }
      return;
    }
    if (tag === 'INPUT') {
      if (attribute === 'src' && (element.getAttribute('type') || '').toLowerCase() === 'image') { record(value, label); }
      return;
    }
    if (!(LOADS[tag] || []).includes(attribute)) { return; }
    if (attribute === 'srcset') {
      for (const url of firstCandidates(value)) { record(url, label); }
    } else {
      record(value, label);
    }
  }
  // The browser's own write of an attribute: what every setter below ends in.
  function write(element, name, value) {
    baseSetAttribute.call(element, name, String(value));
    loadAttribute(element, name, String(value));
    if (element.__attrs && element.__attrs[name]) { element.__attrs[name].__value = String(value); }
  }
  // setAttribute as the page finds it before blocking.js wraps it: the browser's write.
  Element.prototype.setAttribute = function setAttribute(name, value) { write(this, name, value); };
  Element.prototype.setAttributeNS = function setAttributeNS(namespace, qualifiedName, value) {
    const local = qualifiedName.includes(':') ? qualifiedName.split(':')[1] : qualifiedName;
    if (namespace === XLINK) {
      write(this, 'xlink:' + local, value);
    } else if (!namespace) {
      write(this, qualifiedName, value);
    } else {
      baseSetAttribute.call(this, qualifiedName, String(value));
    }
  };

  // --- Elements whose property writes a URL attribute -------------------------------------------
  const urlProperty = (attribute) => ({
    get() { return this.getAttribute(attribute) || ''; },
    set(value) { write(this, attribute, value); },
    enumerable: true, configurable: true
  });
  function elementClass(name, properties) {
    const Class = class extends HTMLElement {};
    Object.defineProperty(Class, 'name', { value: name });
    for (const [property, attribute] of Object.entries(properties)) {
      Object.defineProperty(Class.prototype, property, urlProperty(attribute));
    }
    return Class;
  }
  const HTMLLinkElement = elementClass('HTMLLinkElement', { href: 'href', imageSrcset: 'imagesrcset', rel: 'rel', as: 'as' });
  const HTMLSourceElement = elementClass('HTMLSourceElement', { src: 'src', srcset: 'srcset' });
  const HTMLMediaElement = elementClass('HTMLMediaElement', { src: 'src' });
  const HTMLVideoElement = class extends HTMLMediaElement {};
  Object.defineProperty(HTMLVideoElement.prototype, 'poster', urlProperty('poster'));
  const HTMLAudioElement = class extends HTMLMediaElement {};
  const HTMLObjectElement = elementClass('HTMLObjectElement', { data: 'data' });
  const HTMLEmbedElement = elementClass('HTMLEmbedElement', { src: 'src' });
  const HTMLInputElement = elementClass('HTMLInputElement', { src: 'src', type: 'type' });
  const HTMLTrackElement = elementClass('HTMLTrackElement', { src: 'src' });
  const HTMLStyleElement = elementClass('HTMLStyleElement', {});
  Object.defineProperty(g.HTMLImageElement.prototype, 'srcset', urlProperty('srcset'));
  Object.assign(classes, {
    link: HTMLLinkElement, source: HTMLSourceElement, video: HTMLVideoElement, audio: HTMLAudioElement,
    object: HTMLObjectElement, embed: HTMLEmbedElement, input: HTMLInputElement, track: HTMLTrackElement, style: HTMLStyleElement
  });

  // SVG's <image>: its href is an SVGAnimatedString, whose baseVal writes the attribute.
  class SVGElement extends Element {}
  class SVGAnimatedString {
    constructor(element) { Object.defineProperty(this, '__element', { value: element }); }
    get baseVal() { return this.__element.getAttribute('href') || ''; }
    set baseVal(value) { write(this.__element, 'href', value); }
  }
  class SVGImageElement extends SVGElement {
    get href() {
      if (!this.__href) { Object.defineProperty(this, '__href', { value: new SVGAnimatedString(this) }); }
      return this.__href;
    }
  }
  g.Document.prototype.createElementNS = function createElementNS(namespace, name) {
    const element = name === 'image' ? new SVGImageElement(name) : new SVGElement(name);
    element.nodeName = name;
    Object.defineProperty(element, '__owner', { value: this, writable: true });
    return element;
  };

  // --- Attribute nodes ----------------------------------------------------------------------------
  class Attr extends Node {
    constructor(name, element) {
      super();
      this.nodeType = 2;
      Object.defineProperty(this, '__name', { value: name });
      Object.defineProperty(this, '__value', { value: '', writable: true });
      Object.defineProperty(this, '__element', { value: element || null, writable: true });
    }
    get name() { return this.__name; }
    get ownerElement() { return this.__element; }
    get value() { return this.__value; }
    set value(value) {
      this.__value = String(value);
      if (this.__element !== null) { write(this.__element, this.__name, value); }
    }
  }
  function attach(element, attr) {
    if (!element.__attrs) { Object.defineProperty(element, '__attrs', { value: {} }); }
    element.__attrs[attr.name] = attr;
    attr.__element = element;
    write(element, attr.name, attr.__value);
    return null;
  }
  g.Document.prototype.createAttribute = function createAttribute(name) { return new Attr(name.toLowerCase(), null); };
  Element.prototype.getAttributeNode = function getAttributeNode(name) {
    if (this.getAttribute(name) === null) { return null; }
    if (!this.__attrs) { Object.defineProperty(this, '__attrs', { value: {} }); }
    if (!this.__attrs[name]) {
      this.__attrs[name] = new Attr(name, this);
      this.__attrs[name].__value = this.getAttribute(name);
    }
    return this.__attrs[name];
  };
  Element.prototype.setAttributeNode = function setAttributeNode(attr) { return attach(this, attr); };
  Element.prototype.setAttributeNodeNS = function setAttributeNodeNS(attr) { return attach(this, attr); };
  // element.attributes: the fake DOM's own table of values, whose prototype is NamedNodeMap's.
  class NamedNodeMap {
    setNamedItem(attr) { return attach(this.__element, attr); }
    setNamedItemNS(attr) { return attach(this.__element, attr); }
  }
  Object.defineProperty(Element.prototype, 'attributes', {
    get() { return this.__attributes; },
    set(table) {
      Object.setPrototypeOf(table, NamedNodeMap.prototype);
      Object.defineProperty(table, '__element', { value: this });
      Object.defineProperty(this, '__attributes', { value: table, writable: true, configurable: true });
    },
    enumerable: true, configurable: true
  });
  for (const element of [dom.document.documentElement, dom.document.head]) {
    const table = Object.assign({}, Object.getOwnPropertyDescriptor(element, 'attributes').value);
    delete element.attributes;
    element.attributes = table;
  }

  // --- Text: a <style>'s text is its style sheet ---------------------------------------------------
  const inert = (node) => Boolean(node.__owner && node.__owner.__inert);
  class CharacterData extends Node {
    get data() { return this.__data; }
    set data(value) { setData(this, value); }
  }
  function setData(node, value) {
    node.__data = String(value);
    if (node.parentNode && node.parentNode.nodeName === 'STYLE' && !inert(node.parentNode)) { recordCSS(node.__data); }
  }
  class Text extends CharacterData {
    constructor(data) {
      super();
      this.nodeType = 3;
      Object.defineProperty(this, '__data', { value: String(data), writable: true });
    }
  }
  g.Document.prototype.createTextNode = function createTextNode(data) { return new Text(data); };
  // textContent and nodeValue as Node.prototype has them: by the node's type.
  const elementText = Object.getOwnPropertyDescriptor(Node.prototype, 'textContent');
  function setText(node, value) {
    if (node.nodeType === 2) { node.value = value; return; }
    if (node.nodeType === 3) { setData(node, value); return; }
    elementText.set.call(node, value);
    if (node.nodeName === 'STYLE' && !inert(node)) { recordCSS(value); }
  }
  Object.defineProperty(Node.prototype, 'textContent', {
    get() {
      if (this.nodeType === 2) { return this.value; }
      if (this.nodeType === 3 && this instanceof Text) { return this.__data; }
      return elementText.get.call(this);
    },
    set(value) { setText(this, value); },
    enumerable: true, configurable: true
  });
  Object.defineProperty(Node.prototype, 'nodeValue', {
    get() { return this.nodeType === 2 ? this.value : (this.nodeType === 3 ? this.textContent : null); },
    set(value) { if (this.nodeType === 2 || this.nodeType === 3) { setText(this, value); } },
    enumerable: true, configurable: true
  });
  Object.defineProperty(HTMLElement.prototype, 'innerText', {
    get() { return this.textContent; },
    set(value) { setText(this, value); },
    enumerable: true, configurable: true
  });
  const appendChild = Node.prototype.appendChild;
  function insert(parent, child) {
    const result = appendChild.call(parent, child);
    if (parent.nodeName === 'STYLE' && child.nodeType === 3 && !inert(parent)) { recordCSS(child.textContent); }
    return result;
  }
  Node.prototype.appendChild = function appendChild(child) { return insert(this, child); };
  Node.prototype.insertBefore = function insertBefore(child) { return insert(this, child); };
  Element.prototype.append = function append(...nodes) {
    for (const node of nodes) { insert(this, typeof node === 'string' ? new Text(node) : node); }
  };

  // --- Styles --------------------------------------------------------------------------------------
  // Declarations: a write of any of them loads its url()s.
  class CSSStyleDeclaration {
    get cssText() { return this.__text || ''; }
    set cssText(value) { Object.defineProperty(this, '__text', { value: String(value), configurable: true }); recordCSS(value); }
    setProperty(name, value) { recordCSS(value); }
  }
  for (const name of ['backgroundImage', 'background-image', 'background', 'listStyleImage', 'cursor', 'color']) {
    Object.defineProperty(CSSStyleDeclaration.prototype, name, {
      get() { return ''; }, set(value) { recordCSS(value); }, enumerable: true, configurable: true
    });
  }
  Object.defineProperty(HTMLElement.prototype, 'style', {
    get() {
      if (!this.__style) { Object.defineProperty(this, '__style', { value: new CSSStyleDeclaration() }); }
      return this.__style;
    },
    // [PutForwards=cssText], without the page-visible cssText setter.
    set(value) { recordCSS(value); },
    enumerable: true, configurable: true
  });
  class StyleSheet {
    get href() { return null; }
  }
  class CSSStyleSheet extends StyleSheet {
    insertRule(rule) { recordCSS(rule); return 0; }
    replaceSync(text) { recordCSS(text); }
    replace(text) { recordCSS(text); return Promise.resolve(this); }
  }
  class CSSRule {}
  class CSSGroupingRule extends CSSRule {
    insertRule(rule) { recordCSS(rule); return 0; }
  }
  class CSSMediaRule extends CSSGroupingRule {}

  Object.assign(g, {
    HTMLLinkElement, HTMLSourceElement, HTMLMediaElement, HTMLVideoElement, HTMLAudioElement, HTMLObjectElement, HTMLEmbedElement,
    HTMLInputElement, HTMLTrackElement, HTMLStyleElement, SVGElement, SVGImageElement, SVGAnimatedString, Attr, NamedNodeMap,
    CharacterData, Text, CSSStyleDeclaration, StyleSheet, CSSStyleSheet, CSSRule, CSSGroupingRule, CSSMediaRule
  });
  // What the HTML parser does: a <style>'s text set without any page-visible setter.
  const parserSetText = (element, text) => elementText.set.call(element, text);
  return { recordCSS, parserSetText };
}

module.exports = { install };
