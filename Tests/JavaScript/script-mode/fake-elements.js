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

const CSS_URL = /url\(\s*(?:"([^"]*)(?:"|$)|'([^']*)(?:'|$)|([^)\s]*)\s*(?:\)|$))|@import(?:\s|\/\*.*?\*\/)*(?:"([^"]*)"|'([^']*)')/gi;
const IMAGE_SET = /(?:-webkit-)?image-set\(((?:[^()]|\((?:[^()]|\([^()]*\))*\))*)(?:\)|$)/gi;
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
  // `seen`: the URLs recorded already for the same style sheet, which load no more.
  // The tokenizer reads escapes (`\\75rl(` is url(), `tracker\\2e test` tracker.test); a url()
  // or string the end of the text cuts loads; image-set()'s own strings are URLs.
  function recordCSS(text, seen) {
    const css = String(text).replace(/\\([0-9a-fA-F]{1,6})[ \t\n]?|\\([^\n])/g,
      (all, hex, other) => (hex ? String.fromCodePoint(parseInt(hex, 16)) : other));
    const urls = [];
    CSS_URL.lastIndex = 0;
    let match;
    while ((match = CSS_URL.exec(css)) !== null) {
      urls.push([1, 2, 3, 4, 5].map((index) => match[index]).find((value) => value !== undefined));
    }
    IMAGE_SET.lastIndex = 0;
    while ((match = IMAGE_SET.exec(css)) !== null) {
      let inside = match[1];
      while (/\([^()]*\)/.test(inside)) { inside = inside.replace(/\([^()]*\)/g, ''); }
      for (const string of inside.matchAll(/"([^"]*)"|'([^']*)'/g)) { urls.push(string[1] !== undefined ? string[1] : string[2]); }
    }
    for (const url of urls) {
      if (url === '' || (seen && seen.has(url))) { continue; }
      if (seen) { seen.add(url); }
      record(url, 'css');
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
  // The data of its text nodes joined, read again after each change (WebKit parses it again on
  // each change of its children or their data); a URL loads once per style.
  const inert = (node) => Boolean(node.__owner && node.__owner.__inert);
  const loadedBy = new WeakMap();
  function styleChanged(style) {
    if (!style || style.nodeName !== 'STYLE' || inert(style)) { return; }
    if (!loadedBy.has(style)) { loadedBy.set(style, new Set()); }
    recordCSS(style.childNodes.filter((node) => node.nodeType === 3).map((node) => node.data).join(''), loadedBy.get(style));
  }
  class CharacterData extends Node {
    get data() { return this.__data; }
    set data(value) { setData(this, value); }
    appendData(data) { setData(this, this.__data + data); }
    insertData(offset, data) { setData(this, this.__data.slice(0, offset) + data + this.__data.slice(offset)); }
    replaceData(offset, count, data) { setData(this, this.__data.slice(0, offset) + data + this.__data.slice(offset + count)); }
    deleteData(offset, count) { setData(this, this.__data.slice(0, offset) + this.__data.slice(offset + count)); }
    before(...nodes) { if (this.parentNode) { insertNodes(this.parentNode, nodes, this); } }
    after(...nodes) { if (this.parentNode) { insertNodes(this.parentNode, nodes, nextOf(this)); } }
    replaceWith(...nodes) {
      const parent = this.parentNode;
      if (!parent) { return; }
      const reference = nextOf(this);
      detach(this);
      insertNodes(parent, nodes, reference);
    }
    remove() { detach(this); }
  }
  function setData(node, value) {
    node.__data = String(value);
    styleChanged(node.parentNode);
  }
  class Text extends CharacterData {
    constructor(data) {
      super();
      this.nodeType = 3;
      Object.defineProperty(this, '__data', { value: String(data), writable: true });
    }
    // The head stays, then the tail's node goes after it: two changes.
    splitText(offset) {
      const tail = new Text(this.__data.slice(offset));
      setData(this, this.__data.slice(0, offset));
      if (this.parentNode) { insertNodes(this.parentNode, [tail], nextOf(this)); }
      return tail;
    }
  }
  g.Document.prototype.createTextNode = function createTextNode(data) { return new Text(data); };
  g.Document.prototype.createDocumentFragment = function createDocumentFragment() { return new g.DocumentFragment(this); };
  // The tree, as Node.prototype has it: children in order, a node in one place at a time.
  const nextOf = (node) => {
    const siblings = node.parentNode ? node.parentNode.childNodes : [];
    return siblings[siblings.indexOf(node) + 1] || null;
  };
  Object.defineProperty(Node.prototype, 'firstChild', { get() { return this.childNodes[0] || null; }, configurable: true });
  Object.defineProperty(Node.prototype, 'nextSibling', { get() { return nextOf(this); }, configurable: true });
  Object.defineProperty(Node.prototype, 'previousSibling', {
    get() {
      const siblings = this.parentNode ? this.parentNode.childNodes : [];
      return siblings[siblings.indexOf(this) - 1] || null;
    },
    configurable: true
  });
  Object.defineProperty(Node.prototype, 'lastChild', { get() { return this.childNodes[this.childNodes.length - 1] || null; }, configurable: true });
  function detach(node) {
    const parent = node.parentNode;
    if (!parent) { return; }
    parent.childNodes = parent.childNodes.filter((child) => child !== node);
    node.parentNode = null;
    styleChanged(parent);
  }
  // Nodes and strings put before `reference` (null: at the end); a fragment's children, all at once.
  function insertNodes(parent, items, reference) {
    const nodes = [];
    for (const item of items) {
      const node = typeof item === 'object' && item !== null ? item : new Text(String(item));
      if (node.nodeType === 11) {
        nodes.push(...node.childNodes);
        node.childNodes = [];
      } else {
        nodes.push(node);
      }
    }
    for (const node of nodes) { if (node.parentNode && node.parentNode.nodeType !== 11) { detach(node); } }
    const index = reference === null ? -1 : parent.childNodes.indexOf(reference);
    parent.childNodes.splice(index < 0 ? parent.childNodes.length : index, 0, ...nodes);
    for (const node of nodes) { node.parentNode = parent; }
    styleChanged(parent);
  }
  // textContent and nodeValue as Node.prototype has them: by the node's type.
  const elementText = Object.getOwnPropertyDescriptor(Node.prototype, 'textContent');
  function setElementText(node, value) {
    for (const child of node.childNodes) { child.parentNode = null; }
    const text = new Text(value === null ? '' : String(value));
    text.parentNode = node;
    node.childNodes = [text];
  }
  function setText(node, value) {
    if (node.nodeType === 2) { node.value = value; return; }
    if (node.nodeType === 3) { setData(node, value); return; }
    setElementText(node, value);
    styleChanged(node);
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
  // Into a <style>, the tree's own insertion; elsewhere the fake DOM's (its mutation records).
  function insert(parent, child, reference) {
    if (parent.nodeName !== 'STYLE' && !(child.parentNode && child.parentNode.nodeName === 'STYLE') && reference === null) {
      return appendChild.call(parent, child);
    }
    insertNodes(parent, [child], reference);
    return child;
  }
  Node.prototype.appendChild = function appendChild(child) { return insert(this, child, null); };
  // insertBefore and replaceChild take two arguments, as WebKit's do.
  const two = (name, count) => { if (count < 2) { throw new TypeError(`${name}: 2 arguments required`); } };
  Node.prototype.insertBefore = function insertBefore(child, reference) {
    two('insertBefore', arguments.length);
    return insert(this, child, reference || null);
  };
  Node.prototype.removeChild = function removeChild(child) {
    if (child.parentNode !== this) { throw new Error('fake browser: not a child'); }
    detach(child);
    return child;
  };
  Node.prototype.replaceChild = function replaceChild(child, old) {
    two('replaceChild', arguments.length);
    const reference = nextOf(old);
    detach(old);
    insertNodes(this, [child], reference);
    return old;
  };
  Element.prototype.append = function append(...nodes) { insertNodes(this, nodes, null); };
  Element.prototype.prepend = function prepend(...nodes) { insertNodes(this, nodes, this.childNodes[0] || null); };
  Element.prototype.replaceChildren = function replaceChildren(...nodes) {
    for (const child of this.childNodes.slice()) { detach(child); }
    insertNodes(this, nodes, null);
  };
  Element.prototype.insertAdjacentText = function insertAdjacentText(position, data) {
    const where = String(position).toLowerCase();
    if (where === 'afterbegin') { insertNodes(this, [String(data)], this.childNodes[0] || null); }
    if (where === 'beforeend') { insertNodes(this, [String(data)], null); }
    if (where === 'beforebegin' && this.parentNode) { insertNodes(this.parentNode, [String(data)], this); }
    if (where === 'afterend' && this.parentNode) { insertNodes(this.parentNode, [String(data)], nextOf(this)); }
  };
  for (const name of ['before', 'after', 'replaceWith', 'remove']) {
    Element.prototype[name] = CharacterData.prototype[name];
  }

  // normalize() and a Range's changes in WebKit's steps, each a change the style sees:
  // Node::normalize appends a text node's data to the one before it, then takes it out;
  // Range::processContents cuts the boundary text nodes, then takes the nodes between out in
  // order; insertNode splits its start text node, then puts the node in. Ranges here have both
  // boundaries in one parent (a text node of it, or itself).
  Node.prototype.normalize = function normalize() {
    for (const child of this.childNodes.slice()) { if (child.nodeType === 1) { child.normalize(); } }
    let head = null;
    for (const child of this.childNodes.slice()) {
      if (child.nodeType !== 3) {
        head = null;
      } else if (child.__data === '') {
        detach(child);
      } else if (head === null) {
        head = child;
      } else {
        setData(head, head.__data + child.__data);
        detach(child);
      }
    }
  };
  const parentIn = (container) => (container.nodeType === 3 ? container.parentNode : container);
  // The range's contents, taken out unless `keep` (cloneContents).
  function contents(range, keep) {
    const { __sc: sc, __so: so, __ec: ec, __eo: eo } = range;
    const fragment = new g.DocumentFragment(dom.document);
    const put = (node) => { fragment.childNodes.push(node); node.parentNode = fragment; };
    if (sc === ec && sc.nodeType === 3) {
      put(new Text(sc.__data.slice(so, eo)));
      if (!keep) { setData(sc, sc.__data.slice(0, so) + sc.__data.slice(eo)); }
      return fragment;
    }
    const parent = parentIn(sc);
    if (parentIn(ec) !== parent) { throw new Error('fake browser: a range across parents'); }
    const middle = [];
    const to = ec.nodeType === 3 ? ec : parent.childNodes[eo] || null;
    for (let node = sc.nodeType === 3 ? nextOf(sc) : parent.childNodes[so] || null; node !== null && node !== to; node = nextOf(node)) {
      middle.push(node);
    }
    if (sc.nodeType === 3) {
      put(new Text(sc.__data.slice(so)));
      if (!keep) { setData(sc, sc.__data.slice(0, so)); }
    }
    const right = ec.nodeType === 3 ? new Text(ec.__data.slice(0, eo)) : null;
    if (right !== null && !keep) { setData(ec, ec.__data.slice(eo)); }
    for (const node of middle) {
      if (keep) {
        put(node.nodeType === 3 ? new Text(node.__data) : node.cloneNode(true));
      } else {
        detach(node);
        put(node);
      }
    }
    if (right !== null) { put(right); }
    if (!keep) {
      range.__ec = range.__sc = sc.nodeType === 3 ? sc : parent;
      range.__eo = range.__so = so;
    }
    return fragment;
  }
  function installRange(Range) {
    const boundary = (name) => ({ get() { return this[name]; }, enumerable: true, configurable: true });
    Object.defineProperties(Range.prototype, {
      startContainer: boundary('__sc'), startOffset: boundary('__so'), endContainer: boundary('__ec'), endOffset: boundary('__eo')
    });
    // A boundary after the other one in the same container moves that one too.
    Range.prototype.setStart = function setStart(node, offset) {
      this.__sc = node;
      this.__so = offset;
      if (this.__ec === undefined || (this.__ec === node && this.__eo < offset)) { this.__ec = node; this.__eo = offset; }
    };
    Range.prototype.setEnd = function setEnd(node, offset) {
      this.__ec = node;
      this.__eo = offset;
      if (this.__sc === undefined || (this.__sc === node && this.__so > offset)) { this.__sc = node; this.__so = offset; }
    };
    Range.prototype.selectNode = function selectNode(node) {
      const parent = node.parentNode;
      this.__sc = this.__ec = parent;
      this.__so = parent.childNodes.indexOf(node);
      this.__eo = this.__so + 1;
    };
    Range.prototype.cloneContents = function cloneContents() { return contents(this, true); };
    Range.prototype.deleteContents = function deleteContents() { contents(this, false); };
    Range.prototype.extractContents = function extractContents() { return contents(this, false); };
    const insertNode = function insertNode(node) {
      const { __sc: sc, __so: so } = this;
      if (sc.nodeType !== 3) {
        insertNodes(sc, [node], sc.childNodes[so] || null);
        return;
      }
      const tail = new Text(sc.__data.slice(so));
      setData(sc, sc.__data.slice(0, so));
      insertNodes(sc.parentNode, [tail], nextOf(sc));
      insertNodes(sc.parentNode, [node], tail);
    };
    Range.prototype.insertNode = insertNode;
    Range.prototype.surroundContents = function surroundContents(newParent) {
      const fragment = contents(this, false);
      for (const child of newParent.childNodes.slice()) { detach(child); }
      insertNode.call(this, newParent);
      if (fragment.childNodes.length > 0) { insertNodes(newParent, [fragment], null); }
      this.selectNode(newParent);
    };
    g.Document.prototype.createRange = function createRange() { return new Range(); };
  }

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

  // CSS Typed OM: a value loads when a style property map gets it (set, append); parse and
  // parseAll only read the text. A value's CSS text is its toString's.
  class CSSStyleValue {
    constructor(text) { Object.defineProperty(this, '__text', { value: String(text) }); }
    static parse(property, text) { return new (/url\(|image-set\(/i.test(text) ? CSSImageValue : CSSStyleValue)(text); }
    static parseAll(property, text) { return String(text).split(/,(?![^(]*\))/).map((one) => CSSStyleValue.parse(property, one.trim())); }
    toString() {
      if (!(this instanceof CSSStyleValue) || this.__text === undefined) { throw new TypeError('not a CSSStyleValue'); }
      return this.__text;
    }
  }
  class CSSImageValue extends CSSStyleValue {}
  // Values: a CSSStyleValue's text, or anything else converted to a string (each once).
  const valueText = (value) => (value instanceof CSSStyleValue && value.__text !== undefined ? value.__text : String(value));
  class StylePropertyMap {
    set(property, ...values) { for (const value of values) { recordCSS(valueText(value)); } }
    append(property, ...values) { for (const value of values) { recordCSS(valueText(value)); } }
  }
  Object.defineProperty(HTMLElement.prototype, 'attributeStyleMap', {
    get() {
      if (!this.__map) { Object.defineProperty(this, '__map', { value: new StylePropertyMap() }); }
      return this.__map;
    },
    enumerable: true, configurable: true
  });
  class CSSStyleRule extends CSSRule {
    get styleMap() { return new StylePropertyMap(); }
  }
  // A font face: its source (CSS text, or a buffer that loads nothing) loads when it is made.
  class FontFace {
    constructor(family, source) {
      if (arguments.length < 2) { throw new TypeError('FontFace: 2 arguments required'); }
      const isBuffer = source instanceof ArrayBuffer || ArrayBuffer.isView(source);
      Object.defineProperty(this, '__source', { value: isBuffer ? source : String(source) });
      if (!isBuffer) { recordCSS(this.__source); }
    }
    get family() { return 'x'; }
    load() { return Promise.resolve(this); }
  }
  class FontFaceSet {
    add(face) { this.__faces = (this.__faces || []).concat([face]); return this; }
  }
  dom.document.fonts = new FontFaceSet();

  Object.assign(g, {
    HTMLLinkElement, HTMLSourceElement, HTMLMediaElement, HTMLVideoElement, HTMLAudioElement, HTMLObjectElement, HTMLEmbedElement,
    HTMLInputElement, HTMLTrackElement, HTMLStyleElement, SVGElement, SVGImageElement, SVGAnimatedString, Attr, NamedNodeMap,
    CharacterData, Text, CSSStyleDeclaration, StyleSheet, CSSStyleSheet, CSSRule, CSSGroupingRule, CSSMediaRule, CSSStyleValue,
    CSSImageValue, StylePropertyMap, CSSStyleRule, FontFace, FontFaceSet
  });
  // What the HTML parser does: a <style>'s text set without any page-visible setter.
  const parserSetText = (element, text) => setElementText(element, text);
  return { recordCSS, parserSetText, installRange };
}

module.exports = { install };
