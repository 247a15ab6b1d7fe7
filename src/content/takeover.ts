/**
 * The person takes over: a trusted key press, click or touch on the page while the autopilot plays
 * pauses it (synthetic events the autopilot sends are never trusted).
 */
const INPUT_EVENTS = ['keydown', 'pointerdown', 'mousedown', 'click', 'touchstart'] as const;

/** Call `onTakeover` on the person's input while `isPlaying()`; returns a function that stops watching. */
export function watchTakeover(win: Window, isPlaying: () => boolean, onTakeover: () => void): () => void {
  const onInput = (event: Event): void => {
    if (event.isTrusted && isPlaying()) onTakeover();
  };
  for (const type of INPUT_EVENTS) win.addEventListener(type, onInput, { capture: true, passive: true });
  return () => {
    for (const type of INPUT_EVENTS) win.removeEventListener(type, onInput, { capture: true });
  };
}
