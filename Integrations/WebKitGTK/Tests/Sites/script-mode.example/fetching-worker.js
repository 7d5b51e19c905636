// A first-party worker that calls a tracker.
fetch('https://www.hotjar.com/from-worker').catch(function () {});
