// A dedicated worker of the site: it imports a tracker's script, then fetches a tracker, then
// tells its page how each went.
var imported = 'imported';
try {
  importScripts('https://cdn.adthrive.com/imported.js');
} catch (error) {
  imported = 'import-failed';
}
fetch('https://www.hotjar.com/from-worker', { mode: 'no-cors' }).then(
  function () { postMessage(imported + ',fetched'); }, function () { postMessage(imported + ',fetch-failed'); });
