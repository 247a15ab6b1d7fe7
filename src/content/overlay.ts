/**
 * The arrow drawn over the page's board: the coach's suggestion, or a Hint's.
 *
 * One host element (`<autopilot-arrow>`, an unknown tag no page styles) fixed over the board's box as the
 * adapter measures it (`Adapter.boardRect`: DOM, shadow DOM, canvas alike), with inline `!important`
 * styles and a CLOSED shadow root holding the arrow, so the page's CSS cannot reach the drawing and the
 * page's scripts cannot reach into it. It never catches input (`pointer-events: none`), is hidden from
 * assistive technology (the popup and panel say the move in words), follows scrolls and resizes, and is
 * removed by `hide()`.
 *
 * The host carries `data-move` (the direction shown) for tests and for the page's own curiosity: it says
 * nothing the arrow does not show.
 */
import type { Direction } from '../engine/types';
import type { BoardRect } from './adapters/types';

export const OVERLAY_TAG = 'autopilot-arrow';

/** Degrees to turn an arrow that points up. */
const ROTATION: Readonly<Record<Direction, number>> = { up: 0, right: 90, down: 180, left: 270 };

export interface ArrowPlacement {
  /** The host's box: the board's box (viewport coordinates, for `position: fixed`). */
  readonly host: BoardRect;
  /** The arrow's side in px, centred in the host. */
  readonly size: number;
  readonly rotate: number;
}

/** Where the arrow goes over a board: centred, 32 % of the board's shorter side; null for no usable box. */
export function arrowPlacement(board: BoardRect | null, direction: Direction): ArrowPlacement | null {
  if (!board) return null;
  const { left, top, width, height } = board;
  if (![left, top, width, height].every(Number.isFinite) || width < 8 || height < 8) return null;
  return {
    host: { left, top, width, height },
    size: Math.round(Math.min(width, height) * 0.32),
    rotate: ROTATION[direction],
  };
}

const HOST_STYLE: Readonly<Record<string, string>> = {
  all: 'initial',
  position: 'fixed',
  display: 'block',
  margin: '0',
  padding: '0',
  border: '0',
  'pointer-events': 'none',
  'z-index': '2147483647',
  contain: 'strict',
};

const SHADOW_CSS = `
:host { all: initial; }
.wrap { position: absolute; inset: 0; display: flex; align-items: center; justify-content: center; pointer-events: none; }
svg { display: block; filter: drop-shadow(0 1px 3px rgba(0, 0, 0, 0.35)); opacity: 0.6; transition: transform 80ms ease-out; }
`;

const ARROW_PATH = 'M50 6 L92 50 L66 50 L66 94 L34 94 L34 50 L8 50 Z';

/** The arrow over the board. `show` places it (and keeps it placed); `hide` removes it from the page. */
export class ArrowOverlay {
  private host: HTMLElement | null = null;
  private svg: SVGSVGElement | null = null;
  private direction: Direction | null = null;
  private rectOf: (() => BoardRect | null) | null = null;
  private readonly onViewportChange = (): void => this.schedulePlace();
  private frame: number | null = null;
  private safety: ReturnType<typeof setInterval> | null = null;

  constructor(
    private readonly doc: Document,
    private readonly win: Window,
  ) {}

  /** The direction shown now (null when hidden). */
  get shown(): Direction | null {
    return this.direction;
  }

  /** Point `direction` over the board whose box `rectOf` measures (asked again on scroll and resize). */
  show(direction: Direction, rectOf: () => BoardRect | null): void {
    this.direction = direction;
    this.rectOf = rectOf;
    if (!this.host) this.mount();
    this.place();
  }

  hide(): void {
    this.direction = null;
    this.rectOf = null;
    if (!this.host) return;
    this.win.removeEventListener('scroll', this.onViewportChange, true);
    this.win.removeEventListener('resize', this.onViewportChange);
    if (this.safety !== null) clearInterval(this.safety);
    this.safety = null;
    if (this.frame !== null) this.win.cancelAnimationFrame?.(this.frame);
    this.frame = null;
    this.host.remove();
    this.host = null;
    this.svg = null;
  }

  private mount(): void {
    const host = this.doc.createElement(OVERLAY_TAG);
    for (const [name, value] of Object.entries(HOST_STYLE)) host.style.setProperty(name, value, 'important');
    host.setAttribute('aria-hidden', 'true');
    const shadow = host.attachShadow({ mode: 'closed' });
    const style = this.doc.createElement('style');
    style.textContent = SHADOW_CSS;
    const wrap = this.doc.createElement('div');
    wrap.className = 'wrap';
    const svg = this.doc.createElementNS('http://www.w3.org/2000/svg', 'svg');
    svg.setAttribute('viewBox', '0 0 100 100');
    const path = this.doc.createElementNS('http://www.w3.org/2000/svg', 'path');
    path.setAttribute('d', ARROW_PATH);
    path.setAttribute('fill', 'rgba(38, 132, 255, 0.85)');
    path.setAttribute('stroke', '#ffffff');
    path.setAttribute('stroke-width', '4');
    path.setAttribute('stroke-linejoin', 'round');
    svg.append(path);
    wrap.append(svg);
    shadow.append(style, wrap);
    (this.doc.documentElement ?? this.doc.body).append(host);
    this.host = host;
    this.svg = svg;
    this.win.addEventListener('scroll', this.onViewportChange, { capture: true, passive: true });
    this.win.addEventListener('resize', this.onViewportChange, { passive: true });
    // Boards also move without a scroll or resize (a layout change): look again now and then.
    this.safety = setInterval(() => this.place(), 500);
  }

  private schedulePlace(): void {
    if (this.frame !== null) return;
    const raf = this.win.requestAnimationFrame?.bind(this.win);
    if (!raf) {
      this.place();
      return;
    }
    this.frame = raf(() => {
      this.frame = null;
      this.place();
    });
  }

  private place(): void {
    const host = this.host;
    const svg = this.svg;
    if (!host || !svg || !this.direction || !this.rectOf) return;
    let rect: BoardRect | null;
    try {
      rect = this.rectOf();
    } catch {
      rect = null;
    }
    const placement = arrowPlacement(rect, this.direction);
    if (!placement) {
      host.style.setProperty('display', 'none', 'important');
      host.removeAttribute('data-move');
      return;
    }
    const { left, top, width, height } = placement.host;
    host.style.setProperty('display', 'block', 'important');
    host.style.setProperty('left', `${left}px`, 'important');
    host.style.setProperty('top', `${top}px`, 'important');
    host.style.setProperty('width', `${width}px`, 'important');
    host.style.setProperty('height', `${height}px`, 'important');
    svg.setAttribute('width', String(placement.size));
    svg.setAttribute('height', String(placement.size));
    svg.style.transform = `rotate(${placement.rotate}deg)`;
    host.setAttribute('data-move', this.direction);
  }
}
