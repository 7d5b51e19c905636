// imasdk.googleapis.com/google-ima.js application/javascript
// The Google IMA SDK (ima3.js): every ad request ends in an AdErrorEvent (an empty VAST response),
// the path on which players play their content.
(function () {
  'use strict';
  const w = window;
  w.google = w.google && typeof w.google === 'object' ? w.google : {};
  if (w.google.ima && typeof w.google.ima.AdsLoader === 'function') return;
  const noop = function () {};
  function setters(prototype, names) {
    names.forEach(function (name) { prototype[name] = noop; });
  }
  function EventTarget() {
    this.listeners = {};
  }
  EventTarget.prototype.addEventListener = function (types, listener, useCapture, context) {
    if (typeof listener !== 'function') return;
    [].concat(types).forEach(function (type) {
      (this.listeners[type] = this.listeners[type] || []).push({ listener: listener, context: context });
    }, this);
  };
  EventTarget.prototype.removeEventListener = function (types, listener) {
    [].concat(types).forEach(function (type) {
      this.listeners[type] = (this.listeners[type] || []).filter(function (entry) {
        return entry.listener !== listener;
      });
    }, this);
  };
  EventTarget.prototype.dispatch = function (event) {
    (this.listeners[event.type] || []).slice().forEach(function (entry) {
      try {
        entry.listener.call(entry.context, event);
      } catch (error) {
        setTimeout(function () { throw error; }, 0);
      }
    });
  };
  function AdError(message, errorCode, vastErrorCode) {
    this.message = message;
    this.errorCode = errorCode;
    this.vastErrorCode = vastErrorCode;
  }
  AdError.prototype.getErrorCode = function () { return this.errorCode; };
  AdError.prototype.getVastErrorCode = function () { return this.vastErrorCode; };
  AdError.prototype.getMessage = function () { return this.message; };
  AdError.prototype.getType = function () { return AdError.Type.AD_LOAD; };
  AdError.prototype.getInnerError = function () { return null; };
  AdError.prototype.toString = function () { return 'AdError ' + this.errorCode + ': ' + this.message; };
  AdError.Type = { AD_LOAD: 'adLoadError', AD_PLAY: 'adPlayError' };
  AdError.ErrorCode = { VAST_MALFORMED_RESPONSE: 100, UNKNOWN_AD_RESPONSE: 1010, VAST_EMPTY_RESPONSE: 1009,
    FAILED_TO_REQUEST_ADS: 1005, VAST_LOAD_TIMEOUT: 301, VAST_NO_ADS_AFTER_WRAPPER: 303, UNKNOWN_ERROR: 900,
    VIDEO_PLAY_ERROR: 400, VAST_MEDIA_LOAD_TIMEOUT: 402, INVALID_ARGUMENTS: 1101, AUTOPLAY_DISALLOWED: 1205 };
  function AdErrorEvent(error, userRequestContext) {
    this.type = AdErrorEvent.Type.AD_ERROR;
    this.error = error;
    this.userRequestContext = userRequestContext;
  }
  AdErrorEvent.prototype.getError = function () { return this.error; };
  AdErrorEvent.prototype.getUserRequestContext = function () {
    return this.userRequestContext === undefined ? null : this.userRequestContext;
  };
  AdErrorEvent.Type = { AD_ERROR: 'adError' };
  function AdsManager() {
    EventTarget.call(this);
  }
  AdsManager.prototype = Object.create(EventTarget.prototype);
  setters(AdsManager.prototype, ['clicked', 'collapse', 'configureAdsManager', 'destroy', 'discardAdBreak', 'expand',
    'focus', 'init', 'pause', 'requestNextAdBreak', 'resize', 'resume', 'setVolume', 'skip', 'start', 'stop',
    'updateAdsRenderingSettings']);
  AdsManager.prototype.getAdSkippableState = function () { return false; };
  AdsManager.prototype.getCuePoints = function () { return []; };
  AdsManager.prototype.getCurrentAdCuePoints = function () { return []; };
  AdsManager.prototype.getCurrentAd = function () { return null; };
  AdsManager.prototype.getRemainingTime = function () { return 0; };
  AdsManager.prototype.getVolume = function () { return 1; };
  AdsManager.prototype.isCustomClickTrackingUsed = function () { return false; };
  AdsManager.prototype.isCustomPlaybackUsed = function () { return false; };
  function AdsManagerLoadedEvent(userRequestContext) {
    this.type = AdsManagerLoadedEvent.Type.ADS_MANAGER_LOADED;
    this.userRequestContext = userRequestContext;
  }
  AdsManagerLoadedEvent.prototype.getAdsManager = function () { return new AdsManager(); };
  AdsManagerLoadedEvent.prototype.getUserRequestContext = AdErrorEvent.prototype.getUserRequestContext;
  AdsManagerLoadedEvent.Type = { ADS_MANAGER_LOADED: 'adsManagerLoaded' };
  function ImaSdkSettings() {
    this.locale = 'en';
  }
  setters(ImaSdkSettings.prototype, ['setAutoPlayAdBreaks', 'setCompanionBackfill', 'setCookiesEnabled',
    'setDisableCustomPlaybackForIOS10Plus', 'setDisableFlashAds', 'setFeatureFlags', 'setNumRedirects',
    'setPlayerType', 'setPlayerVersion', 'setPpid', 'setSessionId', 'setVpaidAllowed', 'setVpaidMode']);
  ImaSdkSettings.prototype.setLocale = function (locale) { this.locale = String(locale); };
  ImaSdkSettings.prototype.getLocale = function () { return this.locale; };
  ImaSdkSettings.prototype.getCompanionBackfill = function () { return 'always'; };
  ImaSdkSettings.prototype.getDisableCustomPlaybackForIOS10Plus = function () { return false; };
  ImaSdkSettings.prototype.getDisableFlashAds = function () { return true; };
  ImaSdkSettings.prototype.getFeatureFlags = function () { return {}; };
  ImaSdkSettings.prototype.getNumRedirects = function () { return 4; };
  ImaSdkSettings.prototype.getPlayerType = function () { return ''; };
  ImaSdkSettings.prototype.getPlayerVersion = function () { return ''; };
  ImaSdkSettings.prototype.getPpid = function () { return null; };
  ImaSdkSettings.prototype.isCookiesEnabled = function () { return false; };
  ImaSdkSettings.prototype.isVpaidAdapter = function () { return false; };
  ImaSdkSettings.CompanionBackfillMode = { ALWAYS: 'always', ON_MASTER_AD: 'on_master_ad' };
  ImaSdkSettings.VpaidMode = { DISABLED: 0, ENABLED: 1, INSECURE: 2 };
  const settings = new ImaSdkSettings();
  function AdDisplayContainer() {}
  AdDisplayContainer.prototype.initialize = noop;
  AdDisplayContainer.prototype.destroy = noop;
  function AdsRequest() {}
  setters(AdsRequest.prototype, ['setAdWillAutoPlay', 'setAdWillPlayMuted', 'setContinuousPlayback']);
  function AdsLoader() {
    EventTarget.call(this);
  }
  AdsLoader.prototype = Object.create(EventTarget.prototype);
  AdsLoader.prototype.contentComplete = noop;
  AdsLoader.prototype.destroy = noop;
  AdsLoader.prototype.getSettings = function () { return settings; };
  AdsLoader.prototype.getVersion = function () { return w.google.ima.VERSION; };
  AdsLoader.prototype.requestAds = function (request, userRequestContext) {
    const loader = this;
    setTimeout(function () {
      const error = new AdError('The VAST response document is empty.', AdError.ErrorCode.VAST_EMPTY_RESPONSE, 303);
      loader.dispatch(new AdErrorEvent(error, userRequestContext));
    }, 0);
  };
  function AdsRenderingSettings() {
    this.autoAlign = true;
    this.bitrate = -1;
    this.enablePreloading = false;
    this.loadVideoTimeout = -1;
    this.restoreCustomPlaybackStateOnAdBreakComplete = false;
    this.uiElements = null;
    this.useStyledLinearAds = false;
    this.useStyledNonLinearAds = false;
  }
  function CompanionAdSelectionSettings() {}
  CompanionAdSelectionSettings.CreativeType = { ALL: 'All', FLASH: 'Flash', IMAGE: 'Image' };
  CompanionAdSelectionSettings.ResourceType = { ALL: 'All', HTML: 'Html', IFRAME: 'IFrame', STATIC: 'Static' };
  CompanionAdSelectionSettings.SizeCriteria = { IGNORE: 'IgnoreSize', SELECT_EXACT_MATCH: 'SelectExactMatch',
    SELECT_NEAR_MATCH: 'SelectNearMatch' };
  function AdEvent(type) {
    this.type = type;
  }
  AdEvent.prototype.getAd = function () { return null; };
  AdEvent.prototype.getAdData = function () { return null; };
  AdEvent.Type = {
    AD_BREAK_READY: 'adBreakReady', AD_BUFFERING: 'adBuffering', AD_CAN_PLAY: 'adCanPlay', AD_METADATA: 'adMetadata',
    AD_PROGRESS: 'adProgress', ALL_ADS_COMPLETED: 'allAdsCompleted', CLICK: 'click', COMPLETE: 'complete',
    CONTENT_PAUSE_REQUESTED: 'contentPauseRequested', CONTENT_RESUME_REQUESTED: 'contentResumeRequested',
    DURATION_CHANGE: 'durationChange', EXPANDED_CHANGED: 'expandedChanged', FIRST_QUARTILE: 'firstQuartile',
    IMPRESSION: 'impression', INTERACTION: 'interaction', LINEAR_CHANGE: 'linearChange',
    LINEAR_CHANGED: 'linearChanged', LOADED: 'loaded', LOG: 'log', MIDPOINT: 'midpoint', PAUSED: 'pause',
    RESUMED: 'resume', SKIPPABLE_STATE_CHANGED: 'skippableStateChanged', SKIPPED: 'skip', STARTED: 'start',
    THIRD_QUARTILE: 'thirdQuartile', USER_CLOSE: 'userClose', VIDEO_CLICKED: 'videoClicked',
    VIDEO_ICON_CLICKED: 'videoIconClicked', VIEWABLE_IMPRESSION: 'viewable_impression',
    VOLUME_CHANGED: 'volumeChange', VOLUME_MUTED: 'mute' };
  w.google.ima = {
    AdDisplayContainer: AdDisplayContainer,
    AdError: AdError,
    AdErrorEvent: AdErrorEvent,
    AdEvent: AdEvent,
    AdsLoader: AdsLoader,
    AdsManager: AdsManager,
    AdsManagerLoadedEvent: AdsManagerLoadedEvent,
    AdsRenderingSettings: AdsRenderingSettings,
    AdsRequest: AdsRequest,
    CompanionAdSelectionSettings: CompanionAdSelectionSettings,
    ImaSdkSettings: ImaSdkSettings,
    OmidAccessMode: { DOMAIN: 'domain', FULL: 'full', LIMITED: 'limited' },
    OmidVerificationVendor: { COMSCORE: 7, GOOGLE: 9, INTEGRAL_AD_SCIENCE: 2, MOAT: 3, DOUBLEVERIFY: 4, OTHER: 1 },
    UiElements: { AD_ATTRIBUTION: 'adAttribution', COUNTDOWN: 'countdown' },
    ViewMode: { FULLSCREEN: 'fullscreen', NORMAL: 'normal' },
    VERSION: '3.0.0',
    settings: settings
  };
})();
