function (settings, captured) {
  // WebKit script message handlers (WKWebView, WebKitGTK): the host registers a handler named
  // settings.handler in the content world this script runs in. The handler object and its
  // postMessage are taken now, at document start, because a page may later replace
  // window.webkit (in the page world) and must not be able to redirect or drop our messages.
  var handler = null;
  var postMessage = null;
  try {
    var name = (settings && typeof settings.handler === 'string') ? settings.handler : 'trackerless';
    var webkit = captured.window.webkit;
    var handlers = webkit && webkit.messageHandlers;
    handler = (handlers && handlers[name]) || null;
    postMessage = handler && typeof handler.postMessage === 'function' ? handler.postMessage : null;
  } catch (e) {
    handler = null;
    postMessage = null;
  }
  return function post(message) {
    if (postMessage === null) { return false; }
    try {
      // WebKit serializes the object itself (it reaches the host as a dictionary).
      captured.apply(postMessage, handler, [message]);
      return true;
    } catch (e) {
      return false;
    }
  };
}
