// facebook.net/fb-sdk.js application/javascript
// The Facebook JavaScript SDK: FB answers as for a visitor who is not logged in, social plugins
// stay empty, fbAsyncInit runs; nothing reaches Facebook.
(function () {
  'use strict';
  const w = window;
  if (w.FB && typeof w.FB.init === 'function' && typeof w.FB.getLoginStatus === 'function') return;
  const noop = function () {};
  const subscribers = {};
  const notLoggedIn = function () { return { status: 'unknown', authResponse: null }; };
  function later(callback, argument) {
    if (typeof callback === 'function') setTimeout(function () { callback(argument); }, 0);
  }
  function publish(name, argument) {
    (subscribers[name] || []).slice().forEach(function (callback) { later(callback, argument); });
  }
  function parse(element, callback) {
    later(callback);
    publish('xfbml.render');
  }
  const FB = {
    init: function (options) {
      if (options && options.xfbml) parse();
    },
    getLoginStatus: function (callback) { later(callback, notLoggedIn()); },
    login: function (callback) { later(callback, notLoggedIn()); },
    logout: function (callback) { later(callback, notLoggedIn()); },
    getAuthResponse: function () { return null; },
    getAccessToken: function () { return null; },
    getUserID: function () { return ''; },
    api: function () {
      const callback = Array.prototype.filter.call(arguments, function (argument) {
        return typeof argument === 'function';
      })[0];
      later(callback, { error: { message: 'Facebook is blocked', type: 'OAuthException', code: 190 } });
    },
    ui: function (parameters, callback) { later(callback, undefined); },
    XFBML: { parse: parse },
    Event: {
      subscribe: function (name, callback) {
        if (typeof callback === 'function') (subscribers[name] = subscribers[name] || []).push(callback);
      },
      unsubscribe: function (name, callback) {
        const list = subscribers[name] || [];
        if (list.indexOf(callback) >= 0) list.splice(list.indexOf(callback), 1);
      }
    },
    AppEvents: {
      EventNames: {}, ParameterNames: {}, activateApp: noop, clearAppVersion: noop, clearUserID: noop,
      getUserID: function () { return ''; }, logEvent: noop, logPageView: noop, logPurchase: noop,
      setAppVersion: noop, setUserID: noop, updateUserProperties: noop
    },
    Canvas: {
      Prefetcher: { addStaticResource: noop, setCollectionMode: noop },
      getPageInfo: function (callback) { later(callback, {}); },
      hideFlashElement: noop, scrollTo: noop, setAutoGrow: noop, setDoneLoading: noop, setSize: noop,
      setUrlHandler: noop, showFlashElement: noop, startTimer: noop, stopTimer: noop
    },
    CustomerChat: { hide: noop, hideDialog: noop, show: noop, showDialog: noop, update: noop }
  };
  w.FB = FB;
  // The SDK calls fbAsyncInit once, after it has loaded (a page may define it right after the
  // script element, so it is looked up then).
  setTimeout(function () {
    const init = w.fbAsyncInit;
    if (typeof init !== 'function' || init.hasRun) return;
    init.hasRun = true;
    init();
  }, 0);
})();
