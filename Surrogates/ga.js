// google-analytics.com/ga.js application/javascript
// Legacy Google Analytics: the _gaq queue and _gat trackers; nothing is sent, links still work.
(function () {
  'use strict';
  const w = window;
  const isLoaded = w._gat && typeof w._gat._getTracker === 'function' && w._gaq && !Array.isArray(w._gaq);
  if (isLoaded) return;
  const noop = function () {};
  const trackers = {};
  const methods = ['_addDevId', '_addIgnoredOrganic', '_addIgnoredRef', '_addItem', '_addOrganic', '_addTrans',
    '_clearIgnoredOrganic', '_clearIgnoredRef', '_clearOrganic', '_clearTrans', '_clearXKey', '_clearXValue',
    '_cookiePathCopy', '_deleteCustomVar', '_initData', '_linkByPost', '_require', '_setAllowAnchor',
    '_setAllowHash', '_setAllowLinker', '_setCampContentKey', '_setCampMediumKey', '_setCampNOKey',
    '_setCampNameKey', '_setCampSourceKey', '_setCampTermKey', '_setCampaignCookieTimeout', '_setCampaignTrack',
    '_setClientInfo', '_setCookiePath', '_setCookiePersistence', '_setCookieTimeout', '_setCustomVar',
    '_setDetectFlash', '_setDetectTitle', '_setDomainName', '_setLocalGifPath', '_setLocalRemoteServerMode',
    '_setLocalServerMode', '_setMaxCustomVariables', '_setNamespace', '_setPageGroup', '_setReferrerOverride',
    '_setRemoteServerMode', '_setSampleRate', '_setSessionCookieTimeout', '_setSessionTimeout',
    '_setSiteSpeedSampleRate',
    '_setTrans', '_setTransactionDelim', '_setVar', '_setVisitorCookieTimeout', '_setXKey', '_setXValue',
    '_visitCode', '_anonymizeIp', '_forceSSL'];
  const hits = ['_trackPageview', '_trackEvent', '_trackSocial', '_trackTiming', '_trackTrans', '_trackPageLoadTime'];
  function Tracker(account, trackerName) {
    const fields = { account: account || 'UA-XXXXX-X', name: trackerName || '' };
    const tracker = this;
    methods.forEach(function (method) { tracker[method] = noop; });
    // hitCallback set with _set runs once, after the next hit would have been sent.
    hits.forEach(function (method) {
      tracker[method] = function () {
        const callback = fields.hitCallback;
        fields.hitCallback = undefined;
        if (typeof callback === 'function') setTimeout(function () { callback(); }, 0);
      };
    });
    this._setAccount = function (value) { fields.account = value; };
    this._getAccount = function () { return fields.account; };
    this._getName = function () { return fields.name; };
    this._set = function (key, value) { fields[key] = value; };
    this._get = function (key) { return fields[key]; };
    this._getVersion = function () { return '5.7.2'; };
    this._getClientInfo = function () { return 1; };
    this._getDetectFlash = function () { return 0; };
    this._getDetectTitle = function () { return 1; };
    this._getLocalGifPath = function () { return '/__utm.gif'; };
    this._getServiceMode = function () { return 1; };
    this._getVisitorCustomVar = function () { return undefined; };
    this._getLinkerUrl = function (url) { return url; };
    // _link navigates to the URL with the linker parameters, which pages rely on for cross-domain links.
    this._link = function (url) {
      if (typeof url === 'string' && url) w.location.href = url;
    };
  }
  function trackerNamed(trackerName, account) {
    const key = trackerName || '';
    if (!trackers[key]) trackers[key] = new Tracker(account, key);
    return trackers[key];
  }
  w._gat = {
    _getTracker: function (account) { return new Tracker(account); },
    _createTracker: function (account, trackerName) {
      const tracker = trackerNamed(trackerName);
      if (account) tracker._setAccount(account);
      return tracker;
    },
    _getTrackerByName: function (trackerName) { return trackerNamed(trackerName); },
    _anonymizeIp: noop,
    _forceSSL: noop,
    _getTrackers: function () { return Object.keys(trackers).map(function (key) { return trackers[key]; }); }
  };
  function run(command) {
    if (typeof command === 'function') {
      command.call(w._gat);
      return;
    }
    if (!command || typeof command[0] !== 'string') return;
    const dot = command[0].lastIndexOf('.');
    const tracker = trackerNamed(dot > 0 ? command[0].slice(0, dot) : '');
    const method = tracker[dot > 0 ? command[0].slice(dot + 1) : command[0]];
    if (typeof method === 'function') method.apply(tracker, Array.prototype.slice.call(command, 1));
  }
  const push = function () {
    let failures = 0;
    for (let i = 0; i < arguments.length; i += 1) {
      try {
        run(arguments[i]);
      } catch (error) {
        failures += 1;
        setTimeout(function () { throw error; }, 0);
      }
    }
    return failures;
  };
  const queued = w._gaq && typeof w._gaq.length === 'number' ? Array.prototype.slice.call(w._gaq) : [];
  w._gaq = { push: push };
  push.apply(null, queued);
})();
