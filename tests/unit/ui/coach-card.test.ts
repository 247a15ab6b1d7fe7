import { describe, expect, it } from 'vitest';
import { JSDOM } from 'jsdom';
import { CoachCard } from '../../../src/ui/coach-card';
import { initialStatus } from '../../../src/shared/messages';
import type { RunStatus } from '../../../src/shared/messages';

function mount() {
  const dom = new JSDOM('<!DOCTYPE html><main><p id="message"></p></main>');
  const doc = dom.window.document;
  const main = doc.querySelector('main') as HTMLElement;
  const toggles: boolean[] = [];
  const card = new CoachCard(main, (on) => toggles.push(on), doc.getElementById('message'));
  const button = doc.getElementById('coach') as HTMLButtonElement;
  return { doc, main, card, button, toggles };
}

const coaching: RunStatus = {
  ...initialStatus('expectimax', 0),
  coach: {
    active: true,
    suggestion: 'left',
    graded: 2,
    accuracy: 75,
    counts: { best: 1, good: 0, inaccuracy: 0, mistake: 1, blunder: 0 },
    last: { grade: 'mistake', move: 'up', best: 'left', loss: 0.05, accuracy: 50 },
    resyncs: 0,
  },
};

describe('CoachCard', () => {
  it('mounts before the given element, with a Coach toggle that asks for on, then off', () => {
    const t = mount();
    expect(t.main.firstElementChild?.getAttribute('aria-label')).toBe('Coach');
    t.card.render(null);
    expect(t.button.getAttribute('aria-pressed')).toBe('false');
    t.button.click();
    t.card.render(coaching);
    expect(t.button.getAttribute('aria-pressed')).toBe('true');
    t.button.click();
    expect(t.toggles).toEqual([true, false]);
  });

  it('shows accuracy, the last grade with the better move, the suggestion and the counts', () => {
    const t = mount();
    t.card.render(coaching);
    const text = t.main.textContent ?? '';
    expect(text).toContain('Accuracy 75.0 % (2 graded)');
    expect(text).toContain("Mistake: up ↑ (better: left ←, −5.0 % of the position's value)");
    expect(text).toContain('Suggested: left ←');
    expect(text).toContain('1 best · 1 mistake');
  });

  it('without a coach status only the toggle shows; without a tab it is disabled', () => {
    const t = mount();
    t.card.render(initialStatus('expectimax', 0), false);
    expect(t.button.disabled).toBe(true);
    expect((t.doc.querySelector('.coach-details') as HTMLElement).hidden).toBe(true);
  });
});
