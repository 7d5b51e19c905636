function (settings, captured) {
  // No channel to the host (rendered for a host that only wants the script's side effects,
  // such as surrogates): every message is dropped.
  return function post(message) {
    return false;
  };
}
