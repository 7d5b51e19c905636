// doubleclick.net/ad_status.js application/javascript
// The IMA ad-blocker probe: it only says that ads can load.
(function () {
  'use strict';
  window.google_ad_status = 1;
})();
