// A service worker of the site: it fetches a tracker as it installs.
self.addEventListener('install', function (event) {
  event.waitUntil(fetch('https://www.hotjar.com/from-sw', { mode: 'no-cors' }).then(null, function () {}));
});
