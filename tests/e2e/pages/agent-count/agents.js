// Counts the autopilot's agents on this page (see index.html): the listeners on its request channels that
// are still registered, through wrappers of addEventListener / removeEventListener installed first.
(function () {
  'use strict';
  var proto = EventTarget.prototype;
  var add = proto.addEventListener;
  var remove = proto.removeEventListener;
  var live = [];
  var seen = {};
  var isRequestChannel = function (type) {
    // The agent's request name: 32 hex digits derived from its secret and the origin (no fixed text); the
    // agent listens on no other name, and nothing else of this page does on such a name.
    return typeof type === 'string' && /^[0-9a-f]{32}$/.test(type);
  };
  proto.addEventListener = function (type, listener) {
    if (this === window && isRequestChannel(type)) {
      seen[type] = true;
      live.push({ type: type, listener: listener });
    }
    return add.apply(this, arguments);
  };
  proto.removeEventListener = function (type, listener) {
    if (this === window && isRequestChannel(type)) {
      live = live.filter(function (entry) {
        return !(entry.type === type && entry.listener === listener);
      });
    }
    return remove.apply(this, arguments);
  };
  var subscriptions = 0;
  window.__agents = {
    listening: function () {
      return live.length;
    },
    channels: function () {
      return Object.keys(seen).length;
    },
    subscriptions: function () {
      return subscriptions;
    },
    subscribed: function (delta) {
      subscriptions += delta;
    },
  };
})();
