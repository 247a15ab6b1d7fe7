import { describe, expect, it } from 'vitest';
import { JSDOM } from 'jsdom';
import { ChanceLine } from '../../../src/ui/chance-line';
import { chanceAnnouncement, chanceText, percentText, valueRows } from '../../../src/ui/status-view';
import { lastGradeText } from '../../../src/ui/coach-view';
import { initialStatus } from '../../../src/shared/messages';
import type { RunStatus } from '../../../src/shared/messages';
import type { CoachStatus } from '../../../src/shared/coach';

function withChance(p: number, lo = p - 0.03, hi = p + 0.03): RunStatus {
  return { ...initialStatus('expectimax', 0), chance: { next: { target: 4096, p, lo, hi }, after: { target: 8192, p: 0.31, lo: 0.28, hi: 0.34 }, moves: { down: p, left: 0.4 } } };
}

describe('the chance line', () => {
  it('reads "Chance of 4096: 72 %" with the milestone after, and the interval only when it is wide', () => {
    expect(chanceText(withChance(0.72))).toBe('Chance of 4096: 72 % · 8192: 31 %');
    expect(chanceText(withChance(0.72, 0.6, 0.81))).toBe('Chance of 4096: 72 % (60–81 %) · 8192: 31 %');
    expect(chanceText(initialStatus('expectimax', 0))).toBe('');
    expect(percentText(0.999)).toBe('> 99 %');
    expect(percentText(0.001)).toBe('< 1 %');
  });

  it('is announced in steps of ten points', () => {
    expect(chanceAnnouncement(withChance(0.72))).toBe('Chance of 4096: 70 %');
    expect(chanceAnnouncement(withChance(0.74))).toBe(chanceAnnouncement(withChance(0.72)));
    expect(chanceAnnouncement(null)).toBeNull();
  });

  it('mounts after the evaluation line, says for whom the chance holds, and announces politely only on a change', () => {
    const dom = new JSDOM('<!DOCTYPE html><main><p id="evaluation"></p></main>');
    const doc = dom.window.document;
    const line = new ChanceLine(doc.getElementById('evaluation') as HTMLElement);
    const root = doc.getElementById('chance') as HTMLElement;
    expect(root.hidden).toBe(true);
    line.render(withChance(0.72));
    expect(root.hidden).toBe(false);
    expect(root.textContent).toContain('Chance of 4096: 72 %');
    expect(root.textContent).toContain('if the learned network (instant) played on from here');
    const live = root.nextElementSibling as HTMLElement;
    expect(live.getAttribute('aria-live')).toBe('polite');
    expect(live.textContent).toBe('Chance of 4096: 70 %');
    live.textContent = 'heard';
    line.render(withChance(0.73));
    expect(live.textContent).toBe('heard');
    line.render(withChance(0.41));
    expect(live.textContent).toBe('Chance of 4096: 40 %');
  });
});

describe('the move list with chances', () => {
  it('shows each move\u2019s chance in the search\u2019s order, the bar as long as the chance', () => {
    const rows = valueRows({ down: 500, left: 900 }, 'left', { down: 0.72, left: 0.4 });
    expect(rows.map((r) => [r.move, r.text, r.best])).toEqual([['left', '40 %', true], ['down', '72 %', false]]);
    expect(rows[1].share).toBeCloseTo(0.72);
    expect(valueRows({ down: 500, left: 900 }, 'left', { down: 0.72 })[0].text).toBe('900');
  });
});

describe('the coach\u2019s words for a move graded by the chance', () => {
  it('says what the move cost: "−31 % chance of 4096"', () => {
    const coach: CoachStatus = {
      active: true,
      suggestion: 'right',
      graded: 1,
      accuracy: 0,
      counts: { best: 0, good: 0, inaccuracy: 0, mistake: 0, blunder: 1 },
      last: { grade: 'blunder', move: 'up', best: 'right', loss: 0.4, accuracy: 0, chance: { target: 4096, lost: 0.308 } },
      resyncs: 0,
    };
    expect(lastGradeText(coach)).toBe('Blunder: up ↑ (better: right →, −31 % chance of 4096)');
    expect(lastGradeText({ ...coach, last: { ...coach.last!, grade: 'good', chance: { target: 2048, lost: 0.004 } } })).toBe('Good: up ↑ (better: right →, −0.4 % chance of 2048)');
  });
});
