/**
 * The speed setting (the popup's and the panel's "Speed" select): "Fastest" sends the next key as soon as the
 * page has taken the last one and the solver has its move (no pause: settings.pauseMs 0); the other choices
 * add a pause between moves, to watch the game. A pause set another way (an older version's number field)
 * stays listed as it is.
 */
import { t } from './i18n';

/** The pauses offered, in ms (0: Fastest). */
export const SPEED_PAUSES: readonly number[] = [0, 50, 100, 250, 500, 1_000];

/** The words for a pause: "Fastest", or "Pause 250 ms". */
export function speedLabel(pauseMs: number): string {
  return pauseMs === 0 ? t('speedFastest') : t('speedPause', pauseMs);
}

/** Fill the select with the offered pauses (and `current` when it is not one of them), `current` chosen. */
export function renderSpeed(select: HTMLSelectElement, current: number): void {
  const pauses = SPEED_PAUSES.includes(current) ? SPEED_PAUSES : [...SPEED_PAUSES, current].sort((a, b) => a - b);
  const wanted = pauses.map(String);
  const shown = Array.from(select.options, (option) => option.value);
  if (wanted.join() !== shown.join()) {
    const doc = select.ownerDocument;
    select.replaceChildren(
      ...pauses.map((pause) => {
        const option = doc.createElement('option');
        option.value = String(pause);
        option.textContent = speedLabel(pause);
        return option;
      }),
    );
  }
  select.value = String(current);
}
