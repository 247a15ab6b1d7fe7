/** The speed select (src/ui/speed.ts): "Fastest" is no pause, the other choices a pause; a pause set another way stays listed. */
import { describe, expect, it } from 'vitest';
import { JSDOM } from 'jsdom';
import { SPEED_PAUSES, renderSpeed, speedLabel } from '../../../src/ui/speed';

function select(): HTMLSelectElement {
  const dom = new JSDOM('<!DOCTYPE html><select id="pause"></select>');
  return dom.window.document.getElementById('pause') as HTMLSelectElement;
}

describe('the speed select', () => {
  it('offers Fastest (no pause) first, then the pauses, and shows the setting', () => {
    const element = select();
    renderSpeed(element, 0);
    expect(Array.from(element.options, (o) => [o.value, o.textContent])).toEqual(SPEED_PAUSES.map((p) => [String(p), speedLabel(p)]));
    expect(element.options[0].textContent).toBe('Fastest');
    expect(element.value).toBe('0');
    renderSpeed(element, 250);
    expect(element.value).toBe('250');
    expect(element.selectedOptions[0].textContent).toBe('Pause: 250 ms');
  });

  it('a pause that is not offered (an older number field) is listed in its place, and goes once another is chosen', () => {
    const element = select();
    renderSpeed(element, 70);
    expect(Array.from(element.options, (o) => Number(o.value))).toEqual([0, 50, 70, 100, 250, 500, 1_000]);
    expect(element.value).toBe('70');
    renderSpeed(element, 100);
    expect(Array.from(element.options, (o) => Number(o.value))).toEqual([...SPEED_PAUSES]);
  });
});
