function (settings, captured) {
  // Android WebView: an object the host injected as window[settings.handler]
  // (addJavascriptInterface, or WebViewCompat.addWebMessageListener) whose postMessage takes
  // one string. Object and method are taken at document start, before any page script runs.
  var handler = null;
  var postMessage = null;
  try {
    var name = (settings && typeof settings.handler === 'string') ? settings.handler : 'trackerless';
    handler = captured.window[name] || null;
    postMessage = handler && typeof handler.postMessage === 'function' ? handler.postMessage : null;
  } catch (e) {
    handler = null;
    postMessage = null;
  }
  return function post(message) {
    if (postMessage === null) { return false; }
    try {
      var text = captured.JSONstringify(message);
      if (typeof text !== 'string') { return false; }
      captured.apply(postMessage, handler, [text]);
      return true;
    } catch (e) {
      return false;
    }
  };
}
