import { describe, expect, it } from 'vitest';
import { JSDOM } from 'jsdom';
import { ArrowOverlay, OVERLAY_TAG, arrowPlacement } from '../../../src/content/overlay';
import type { BoardRect } from '../../../src/content/adapters/types';
import { scaleBoardBox } from '../../../src/content/adapters/canvas';

describe('arrowPlacement', () => {
  const board: BoardRect = { left: 100, top: 50, width: 500, height: 400 };

  it('covers the board exactly, with the arrow centred at 32 % of the shorter side', () => {
    const placed = arrowPlacement(board, 'up');
    expect(placed).toEqual({ host: board, size: 128, rotate: 0 });
  });

  it('turns the arrow to the move', () => {
    expect(arrowPlacement(board, 'right')?.rotate).toBe(90);
    expect(arrowPlacement(board, 'down')?.rotate).toBe(180);
    expect(arrowPlacement(board, 'left')?.rotate).toBe(270);
  });

  it('a board scrolled partly out of view keeps its coordinates (the arrow stays over the board)', () => {
    const above = { left: 0, top: -300, width: 400, height: 400 };
    expect(arrowPlacement(above, 'left')?.host).toEqual(above);
  });

  it('no box, a tiny box or a broken one: nothing is drawn', () => {
    expect(arrowPlacement(null, 'up')).toBeNull();
    expect(arrowPlacement({ left: 0, top: 0, width: 4, height: 400 }, 'up')).toBeNull();
    expect(arrowPlacement({ left: Number.NaN, top: 0, width: 400, height: 400 }, 'up')).toBeNull();
  });
});

describe('a canvas board on screen', () => {
  it('scales the board-coloured box from canvas pixels to the canvas element\'s CSS box', () => {
    // A 840x840 canvas shown at 420x420 CSS px at (30, 40); the board fills pixels 20..819.
    const rect = scaleBoardBox({ left: 20, top: 20, right: 819, bottom: 819 }, { width: 840, height: 840 }, { left: 30, top: 40, width: 420, height: 420 });
    expect(rect).toEqual({ left: 40, top: 50, width: 400, height: 400 });
  });
});

function page() {
  const dom = new JSDOM('<!DOCTYPE html><html><head><style>* { display: none !important; pointer-events: auto !important; }</style></head><body></body></html>', {
    url: 'http://game.test/',
  });
  const win = dom.window as unknown as Window;
  return { win, doc: win.document, Event: dom.window.Event };
}

describe('ArrowOverlay', () => {
  it('draws in a closed shadow root the page cannot open, never catches input, and says which move', () => {
    const { win, doc } = page();
    const overlay = new ArrowOverlay(doc, win);
    overlay.show('left', () => ({ left: 10, top: 20, width: 300, height: 300 }));
    const host = doc.querySelector(OVERLAY_TAG) as HTMLElement;
    expect(host).not.toBeNull();
    expect(host.shadowRoot).toBeNull(); // closed
    expect(host.style.getPropertyValue('pointer-events')).toBe('none');
    expect(host.style.getPropertyPriority('pointer-events')).toBe('important');
    expect(host.style.getPropertyValue('position')).toBe('fixed');
    expect([host.style.left, host.style.top, host.style.width, host.style.height]).toEqual(['10px', '20px', '300px', '300px']);
    expect(host.getAttribute('data-move')).toBe('left');
    expect(host.getAttribute('aria-hidden')).toBe('true');
    overlay.hide();
  });

  it('follows the board when the page scrolls or resizes', () => {
    const { win, doc, Event } = page();
    const overlay = new ArrowOverlay(doc, win);
    let rect: BoardRect = { left: 10, top: 20, width: 300, height: 300 };
    overlay.show('up', () => rect);
    rect = { left: 10, top: -80, width: 300, height: 300 };
    win.dispatchEvent(new Event('scroll'));
    const host = doc.querySelector(OVERLAY_TAG) as HTMLElement;
    expect(host.style.top).toBe('-80px');
    rect = { left: 50, top: 0, width: 200, height: 200 };
    win.dispatchEvent(new Event('resize'));
    expect([host.style.left, host.style.width]).toEqual(['50px', '200px']);
    overlay.hide();
  });

  it('a new suggestion turns the same arrow; hide removes it from the page', () => {
    const { win, doc } = page();
    const overlay = new ArrowOverlay(doc, win);
    const rect = (): BoardRect => ({ left: 0, top: 0, width: 300, height: 300 });
    overlay.show('up', rect);
    overlay.show('down', rect);
    expect(doc.querySelectorAll(OVERLAY_TAG)).toHaveLength(1);
    expect(doc.querySelector(OVERLAY_TAG)?.getAttribute('data-move')).toBe('down');
    expect(overlay.shown).toBe('down');
    overlay.hide();
    expect(doc.querySelector(OVERLAY_TAG)).toBeNull();
    expect(overlay.shown).toBeNull();
  });

  it('while the board cannot be found it hides the arrow instead of drawing it anywhere', () => {
    const { win, doc } = page();
    const overlay = new ArrowOverlay(doc, win);
    overlay.show('up', () => null);
    const host = doc.querySelector(OVERLAY_TAG) as HTMLElement;
    expect(host.style.getPropertyValue('display')).toBe('none');
    expect(host.hasAttribute('data-move')).toBe(false);
    overlay.hide();
  });
});
