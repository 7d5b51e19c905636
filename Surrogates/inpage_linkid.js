// google-analytics.com/inpage_linkid.js application/javascript
// The enhanced link attribution plugin of ga.js: it only has to leave _gaq usable.
(function () {
  'use strict';
  if (!window._gaq) window._gaq = [];
})();
