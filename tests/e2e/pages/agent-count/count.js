// Counts the subscriptions to the game store made after the page loaded (the autopilot's agents': the
// page's own drawing subscribed before this ran). See index.html.
import { g } from '/pages/play2048-like/assets/index-Dq3x7Kfa.js';

const subscribe = g.subscribe;
g.subscribe = function (callback) {
  window.__agents.subscribed(1);
  const unsubscribe = subscribe.call(g, callback);
  let done = false;
  return () => {
    if (done) return;
    done = true;
    window.__agents.subscribed(-1);
    if (typeof unsubscribe === 'function') unsubscribe();
  };
};
