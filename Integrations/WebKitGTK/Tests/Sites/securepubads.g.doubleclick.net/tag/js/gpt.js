// Stands in for gpt.js in tests: runs the command queue.
(function () {
  var cmd = (window.googletag && window.googletag.cmd) || [];
  var pubads = { enableSingleRequest: function () {}, addEventListener: function () {} };
  window.googletag = { cmd: { push: function (f) { f(); } }, pubads: function () { return pubads; },
    defineSlot: function () { return { addService: function () { return this; } }; }, enableServices: function () {} };
  cmd.forEach(function (f) { f(); });
})();
