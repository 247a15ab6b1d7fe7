// A hostile page's first script (see index.html). Everything it learns goes to window.__hostile.
(function () {
  'use strict';
  var seen = [];
  var mutations = [];
  var callerArgs = [];
  var channels = {};
  var state = { seen: seen, mutations: mutations, callerArgs: callerArgs, channels: channels, forged: 0, observed: 0 };
  window.__hostile = state;

  function note(value) {
    if (seen.length > 20000) return;
    try {
      seen.push(typeof value === 'string' ? value : String(value && value.type ? value.type + ' ' + value.detail : value));
    } catch {
      /* a value without a string form */
    }
  }
  function noteCaller(fn) {
    // Sloppy-mode trick: a wrapped built-in asks who called it and reads that function's arguments.
    try {
      var caller = fn.caller;
      if (caller && caller.arguments) callerArgs.push(Array.prototype.slice.call(caller.arguments).map(String).join(','));
    } catch {
      /* strict callers refuse */
    }
  }

  // Every mutation, attributes with their values.
  new MutationObserver(function (records) {
    records.forEach(function (r) {
      if (r.type === 'attributes') mutations.push(r.target.nodeName + ' @' + r.attributeName + '=' + (r.target.getAttribute ? r.target.getAttribute(r.attributeName) : ''));
      else if (r.type === 'childList') r.addedNodes.forEach(function (n) { mutations.push('+' + n.nodeName + ' ' + (n.outerHTML || n.textContent || '').slice(0, 200)); });
    });
  }).observe(document, { subtree: true, childList: true, attributes: true, attributeOldValue: true, characterData: true });

  var proto = EventTarget.prototype;
  var originalDispatch = proto.dispatchEvent;
  var originalListen = proto.addEventListener;
  var OriginalCustomEvent = window.CustomEvent;
  var last = {};

  function forge(type, detail) {
    // Answer the autopilot's own traffic with forged boards: a replay, a changed copy, a fresh claim.
    var cut = detail.lastIndexOf('~');
    var body = cut >= 0 ? detail.slice(0, cut) : detail;
    var tag = cut >= 0 ? detail.slice(cut + 1) : '';
    var forgedBoard = { state: 'playing', score: 999999, board: [[2, 4, 8, 16], [32, 64, 128, 256], [512, 1024, 0, 0], [2, 2, 2, 2]] };
    var attempts = [];
    var seq = 1000000;
    try {
      var parsed = JSON.parse(body);
      if (parsed && typeof parsed.seq === 'number') seq = parsed.seq + 1;
    } catch {
      /* not JSON */
    }
    var fake = JSON.stringify({ seq: seq, kind: 'push', type: 'store/state', payload: forgedBoard });
    attempts.push(fake + '~' + tag);
    attempts.push(fake + '~' + '0'.repeat(64));
    attempts.push(fake);
    if (last[type]) attempts.push(last[type]);
    last[type] = detail;
    attempts.forEach(function (d) {
      state.forged += 1;
      originalDispatch.call(window, new OriginalCustomEvent(type, { detail: d }));
    });
  }

  proto.dispatchEvent = function dispatchEvent(event) {
    noteCaller(dispatchEvent);
    note(event);
    var type = event && event.type;
    // The autopilot's event names carry nothing fixed: its traffic is told by its shape (a text, a tag).
    var detail = event instanceof OriginalCustomEvent ? event.detail : undefined;
    if (typeof type === 'string' && typeof detail === 'string' && /~[0-9a-f]{64}$/.test(detail)) {
      channels[type] = true;
      state.observed += 1;
      var result = originalDispatch.apply(this, arguments);
      forge(type, detail);
      return result;
    }
    return originalDispatch.apply(this, arguments);
  };
  proto.addEventListener = function addEventListener(type) {
    noteCaller(addEventListener);
    note(type);
    // A name the page does not use itself: the autopilot's.
    if (typeof type === 'string' && !/^[a-z]+$/.test(type)) channels[type] = true;
    return originalListen.apply(this, arguments);
  };
  window.CustomEvent = function CustomEvent(type, init) {
    noteCaller(CustomEvent);
    note(type);
    if (init) note(init.detail);
    return new OriginalCustomEvent(type, init);
  };
  window.CustomEvent.prototype = OriginalCustomEvent.prototype;
  var parse = JSON.parse;
  var stringify = JSON.stringify;
  JSON.parse = function (text) {
    noteCaller(JSON.parse);
    note(text);
    return parse.apply(JSON, arguments);
  };
  JSON.stringify = function () {
    noteCaller(JSON.stringify);
    var out = stringify.apply(JSON, arguments);
    note(out);
    return out;
  };
  var postMessage = window.postMessage;
  window.postMessage = function (message) {
    noteCaller(window.postMessage);
    note(typeof message === 'string' ? message : stringify(message));
    return postMessage.apply(window, arguments);
  };
  // Also listen for anything posted to the window.
  originalListen.call(window, 'message', function (event) {
    note(typeof event.data === 'string' ? event.data : stringify(event.data));
  }, true);
})();
