// Stands in for Google's analytics.js in tests: runs the queue and calls each hitCallback.
(function () {
  var queue = (window.ga && window.ga.q) || [];
  window.ga = function () { var a = arguments[2]; if (a && typeof a.hitCallback === 'function') a.hitCallback(); };
  queue.forEach(function (args) { window.ga.apply(null, args); });
  new Image().src = 'https://www.google-analytics.com/collect?v=1&t=pageview';
})();
