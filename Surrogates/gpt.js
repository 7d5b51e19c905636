// googletagservices.com/gpt.js application/javascript
// Google Publisher Tag: googletag with its cmd queue, services and slots; every slot stays empty.
(function () {
  'use strict';
  const w = window;
  const googletag = w.googletag && typeof w.googletag === 'object' ? w.googletag : (w.googletag = {});
  if (googletag.apiReady === true && typeof googletag.defineSlot === 'function') return;
  const queued = googletag.cmd && typeof googletag.cmd.length === 'number'
    ? Array.prototype.slice.call(googletag.cmd) : [];
  const slots = [];
  const listeners = {};
  let collapseEmptyDivs = false;
  function chain(object, names) {
    names.forEach(function (name) { object[name] = function () { return object; }; });
    return object;
  }
  function run(command) {
    try {
      if (typeof command === 'function') command.call(w);
    } catch (error) {
      setTimeout(function () { throw error; }, 0);
    }
  }
  function Slot(adUnitPath, sizes, elementId) {
    const targeting = {};
    this.service = null;
    chain(this, ['clearCategoryExclusions', 'defineSizeMapping', 'set', 'setCategoryExclusion', 'setClickUrl',
      'setForceSafeFrame', 'setSafeFrameConfig', 'setConfig']);
    this.addService = function (service) { this.service = service; return this; };
    this.setCollapseEmptyDiv = function (collapse) { this.collapse = collapse === true; return this; };
    this.setTargeting = function (key, value) {
      targeting[key] = Array.isArray(value) ? value.map(String) : [String(value)];
      return this;
    };
    this.updateTargetingFromMap = function (map) {
      Object.keys(map || {}).forEach(function (key) { this.setTargeting(key, map[key]); }, this);
      return this;
    };
    this.clearTargeting = function (key) {
      if (key === undefined) Object.keys(targeting).forEach(function (name) { delete targeting[name]; });
      else delete targeting[key];
      return this;
    };
    this.getTargeting = function (key) { return (targeting[key] || []).slice(); };
    this.getTargetingKeys = function () { return Object.keys(targeting); };
    this.getTargetingMap = function () { return Object.assign({}, targeting); };
    this.getAdUnitPath = function () { return adUnitPath; };
    this.getSlotElementId = function () { return elementId; };
    this.getDomId = this.getSlotElementId;
    this.getSizes = function () { return Array.isArray(sizes) ? sizes.slice() : []; };
    this.get = function () { return null; };
    this.getConfig = function () { return {}; };
    this.getAttributeKeys = function () { return []; };
    this.getCategoryExclusions = function () { return []; };
    this.getResponseInformation = function () { return null; };
    this.getOutOfPage = function () { return false; };
  }
  function dispatch(type, slot) {
    const event = { slot: slot, serviceName: 'publisher_ads', isEmpty: true, size: null, creativeId: null,
      lineItemId: null, advertiserId: null, campaignId: null, isBackfill: false };
    (listeners[type] || []).slice().forEach(function (listener) { run(function () { listener(event); }); });
  }
  // A page waits for slotRenderEnded to hide or collapse the slots that got no ad.
  function render(slot) {
    setTimeout(function () {
      if (slots.indexOf(slot) < 0) return;
      if (slot.collapse || collapseEmptyDivs) {
        const element = w.document.getElementById(slot.getSlotElementId());
        if (element && element.style) element.style.display = 'none';
      }
      dispatch('slotRenderEnded', slot);
    }, 0);
  }
  function slotsIn(list) {
    return Array.isArray(list) ? list.filter(function (slot) { return slots.indexOf(slot) >= 0; }) : slots.slice();
  }
  const pubads = chain({}, ['clearCategoryExclusions', 'clearTagForChildDirectedTreatment', 'clearTargeting',
    'disableInitialLoad', 'enableAsyncRendering', 'enableLazyLoad', 'enableSyncRendering', 'enableVideoAds',
    'set', 'setCategoryExclusion', 'setCentering', 'setCookieOptions', 'setForceSafeFrame', 'setLocation',
    'setPrivacySettings', 'setPublisherProvidedId', 'setRequestNonPersonalizedAds', 'setSafeFrameConfig',
    'setTagForChildDirectedTreatment', 'setTagForUnderAgeOfConsent', 'setTargeting', 'setVideoContent',
    'updateCorrelator']);
  pubads.addEventListener = function (type, listener) {
    if (typeof listener === 'function') (listeners[type] = listeners[type] || []).push(listener);
    return pubads;
  };
  pubads.removeEventListener = function (type, listener) {
    const list = listeners[type] || [];
    if (list.indexOf(listener) >= 0) list.splice(list.indexOf(listener), 1);
    return true;
  };
  pubads.collapseEmptyDivs = function () { collapseEmptyDivs = true; return true; };
  pubads.enableSingleRequest = function () { return true; };
  pubads.isInitialLoadDisabled = function () { return false; };
  pubads.getSlots = function () { return slots.slice(); };
  pubads.getSlotIdMap = function () { return {}; };
  pubads.get = function () { return null; };
  pubads.getAttributeKeys = function () { return []; };
  pubads.getTargeting = function () { return []; };
  pubads.getTargetingKeys = function () { return []; };
  pubads.getName = function () { return 'publisher_ads'; };
  pubads.refresh = function (list) { slotsIn(list).forEach(render); };
  pubads.clear = function () { return true; };
  pubads.display = function (adUnitPath, size, elementId) {
    googletag.display(googletag.defineSlot(adUnitPath, size, elementId).addService(pubads));
  };
  const service = function (name) {
    const methods = ['addEventListener', 'set', 'setRefreshUnfilledSlots', 'setVideoContent'];
    return chain({ getName: function () { return name; } }, methods);
  };
  const companionAds = service('companion_ads');
  const content = service('content');
  googletag.defineSlot = function (adUnitPath, size, elementId) {
    const slot = new Slot(adUnitPath, size, elementId);
    slots.push(slot);
    return slot;
  };
  googletag.defineOutOfPageSlot = function (adUnitPath, elementId) {
    return googletag.defineSlot(adUnitPath, [], typeof elementId === 'string' ? elementId : 'gpt_unit_' + slots.length);
  };
  googletag.destroySlots = function (list) {
    slotsIn(list).forEach(function (slot) { slots.splice(slots.indexOf(slot), 1); });
    return true;
  };
  googletag.display = function (target) {
    const id = target && typeof target.getSlotElementId === 'function' ? target.getSlotElementId() : target;
    slots.forEach(function (slot) { if (slot.getSlotElementId() === id) render(slot); });
  };
  googletag.pubads = function () { return pubads; };
  googletag.companionAds = function () { return companionAds; };
  googletag.content = function () { return content; };
  googletag.enableServices = function () {};
  googletag.disablePublisherConsole = function () {};
  googletag.openConsole = function () {};
  googletag.setAdIframeTitle = function () {};
  googletag.setConfig = function () {};
  googletag.getConfig = function () { return {}; };
  googletag.getVersion = function () { return '2024010101'; };
  googletag.sizeMapping = function () {
    const mapping = [];
    const builder = {
      addSize: function (viewport, sizes) { mapping.push([viewport, sizes]); return builder; },
      build: function () { return mapping.slice(); }
    };
    return builder;
  };
  googletag.enums = { OutOfPageFormat: { BOTTOM_ANCHOR: 3, GAME_MANUAL_INTERSTITIAL: 7, INTERSTITIAL: 5,
    LEFT_SIDE_RAIL: 8, REWARDED: 4, RIGHT_SIDE_RAIL: 9, TOP_ANCHOR: 2 }, TrafficSource: { ORGANIC: 0, PAID: 1 } };
  googletag.secureSignalProviders = googletag.secureSignalProviders || [];
  googletag.apiReady = true;
  googletag.pubadsReady = true;
  // Once loaded, cmd.push runs its functions at once, as GPT's own command array does.
  googletag.cmd = {
    push: function () {
      for (let i = 0; i < arguments.length; i += 1) run(arguments[i]);
      return arguments.length;
    }
  };
  queued.forEach(run);
})();
