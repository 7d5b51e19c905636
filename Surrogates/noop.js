// trackerless.invalid/noop.js application/javascript
// Stands in for scripts whose absence pages survive (show_ads.js, gplayer.js, htlbid.js,
// advertising.js): it only lets their load event fire.
(function () {
  'use strict';
})();
