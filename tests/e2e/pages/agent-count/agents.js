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
    return typeof type === 'string' && type.indexOf('__2048autopilot:') === 0 && /:to-page$/.test(type);
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
