// A first-party script of the page-load benchmark: some work, no network.
(function () {
  var total = 0;
  for (var i = 0; i < 2000; i += 1) { total += i % 7; }
  document.documentElement.setAttribute('data-app-' + (document.scripts.length), String(total));
}());
