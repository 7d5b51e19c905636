function (settings, captured) {
  // WebView2: window.chrome.webview.postMessage(object); the host reads it with
  // WebMessageAsJson. Taken at document start, before any page script can replace it.
  var channel = null;
  var postMessage = null;
  try {
    var chrome = captured.window.chrome;
    channel = (chrome && chrome.webview) || null;
    postMessage = channel && typeof channel.postMessage === 'function' ? channel.postMessage : null;
  } catch (e) {
    channel = null;
    postMessage = null;
  }
  return function post(message) {
    if (postMessage === null) { return false; }
    try {
      captured.apply(postMessage, channel, [message]);
      return true;
    } catch (e) {
      return false;
    }
  };
}
