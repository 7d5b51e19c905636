// youtube.com/youtube-iframe-api.js application/javascript
// The YouTube IFrame Player API (iframe_api, player_api) without YouTube: YT.Player objects take
// every command and play nothing. They fire onReady, so set-up code that waits for it runs;
// their state stays UNSTARTED and the page's element is left as it is, with no iframe in it.
(function () {
  'use strict';
  const w = window;
  if (w.YT && typeof w.YT.Player === 'function' && w.YT.loaded === 1) return;
  const noop = function () {};
  const players = {};
  function later(callback, argument) {
    setTimeout(function () {
      try {
        callback(argument);
      } catch (error) {
        setTimeout(function () { throw error; }, 0);
      }
    }, 0);
  }
  function Player(target, options) {
    const player = this;
    const settings = options || {};
    const element = typeof target === 'string' ? w.document.getElementById(target) : target;
    const listeners = {};
    let videoId = typeof settings.videoId === 'string' ? settings.videoId : '';
    let muted = false;
    let volume = 100;
    ['cuePlaylist', 'loadPlaylist', 'nextVideo', 'pauseVideo', 'playVideo', 'playVideoAt', 'previousVideo',
      'seekTo', 'setLoop', 'setOption', 'setPlaybackQuality', 'setPlaybackRate', 'setShuffle',
      'setSphericalProperties', 'stopVideo', 'clearVideo'].forEach(function (name) { player[name] = noop; });
    this.cueVideoById = this.loadVideoById = function (id) {
      const value = id && typeof id === 'object' ? id.videoId : id;
      if (typeof value === 'string') videoId = value;
    };
    this.cueVideoByUrl = this.loadVideoByUrl = noop;
    this.mute = function () { muted = true; };
    this.unMute = function () { muted = false; };
    this.isMuted = function () { return muted; };
    this.setVolume = function (value) { if (typeof value === 'number') volume = Math.max(0, Math.min(100, value)); };
    this.getVolume = function () { return volume; };
    this.setSize = function () { return player; };
    this.getPlayerState = function () { return -1; };
    this.getCurrentTime = function () { return 0; };
    this.getDuration = function () { return 0; };
    this.getVideoLoadedFraction = function () { return 0; };
    this.getPlaybackRate = function () { return 1; };
    this.getAvailablePlaybackRates = function () { return [1]; };
    this.getPlaybackQuality = function () { return 'unknown'; };
    this.getAvailableQualityLevels = function () { return []; };
    this.getPlaylist = function () { return []; };
    this.getPlaylistIndex = function () { return -1; };
    this.getOptions = function () { return []; };
    this.getOption = function () { return undefined; };
    this.getSphericalProperties = function () { return {}; };
    this.getVideoUrl = function () { return 'https://www.youtube.com/watch?v=' + encodeURIComponent(videoId); };
    this.getVideoEmbedCode = function () { return ''; };
    this.getVideoData = function () { return { video_id: videoId, title: '', author: '' }; };
    this.getIframe = function () { return element || null; };
    this.addEventListener = function (name, listener) {
      if (typeof listener === 'function') (listeners[name] = listeners[name] || []).push(listener);
    };
    this.removeEventListener = function (name, listener) {
      listeners[name] = (listeners[name] || []).filter(function (entry) { return entry !== listener; });
    };
    this.destroy = function () {
      Object.keys(listeners).forEach(function (name) { listeners[name] = []; });
      if (element && element.id) delete players[element.id];
    };
    const events = settings.events || {};
    Object.keys(events).forEach(function (name) { player.addEventListener(name, events[name]); });
    if (element && element.id) players[element.id] = player;
    setTimeout(function () {
      (listeners.onReady || []).slice().forEach(function (listener) {
        later(listener, { target: player, data: null });
      });
    }, 0);
  }
  w.YTConfig = w.YTConfig || { host: 'https://www.youtube.com' };
  w.YT = {
    loading: 1,
    loaded: 1,
    Player: Player,
    PlayerState: { UNSTARTED: -1, ENDED: 0, PLAYING: 1, PAUSED: 2, BUFFERING: 3, CUED: 5 },
    get: function (id) { return players[id] || null; },
    ready: function (callback) {
      if (typeof callback === 'function') later(callback);
    },
    scan: noop,
    setConfig: function (config) { Object.assign(w.YTConfig, config); },
    subscribe: noop,
    unsubscribe: noop
  };
  // Pages define these around the script element that loads the API and expect them to be
  // called once it is ready.
  ['onYouTubeIframeAPIReady', 'onYouTubePlayerAPIReady'].forEach(function (name) {
    later(function () {
      if (typeof w[name] === 'function') w[name]();
    });
  });
})();
