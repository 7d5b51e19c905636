// A SharedWorker of the site: it fetches a tracker, then tells its page.
onconnect = function (event) {
  var port = event.ports[0];
  fetch('https://www.hotjar.com/from-shared', { mode: 'no-cors' }).then(
    function () { port.postMessage('fetched'); }, function () { port.postMessage('failed'); });
};
