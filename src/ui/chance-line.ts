/**
 * The chance line under the evaluation line: "Chance of 4096: 72 % · 8192: 31 %" and, smaller, for whom it
 * holds (the learned network with one look ahead playing on: the player the curves were measured on,
 * src/engine/chance.ts). Self-contained like the coach card: the popup and the side panel mount it after
 * their evaluation line. Screen readers hear it politely, and only when it moves by ten points or its
 * milestone changes (not at every move of a fast run).
 */
import type { RunStatus } from '../shared/messages';
import { t } from './i18n';
import { chanceAnnouncement, chanceText } from './status-view';

export class ChanceLine {
  private readonly root: HTMLElement;
  private readonly text: HTMLElement;
  private readonly announce: HTMLElement;
  private announced = '';

  constructor(after: Element) {
    const doc = after.ownerDocument;
    this.root = doc.createElement('p');
    this.root.id = 'chance';
    this.root.className = 'chance';
    this.root.hidden = true;
    this.text = doc.createElement('span');
    this.text.className = 'chance-text';
    const player = doc.createElement('small');
    player.className = 'chance-player';
    player.textContent = t('chancePlayer');
    this.root.append(this.text, ' ', player);
    this.announce = doc.createElement('p');
    this.announce.className = 'visually-hidden';
    this.announce.setAttribute('role', 'status');
    this.announce.setAttribute('aria-live', 'polite');
    this.announce.setAttribute('aria-atomic', 'true');
    after.after(this.root, this.announce);
  }

  render(status: RunStatus | null): void {
    const text = chanceText(status);
    if (this.text.textContent !== text) this.text.textContent = text;
    this.root.hidden = text === '';
    const announcement = chanceAnnouncement(status);
    if (announcement !== null && announcement !== this.announced) {
      this.announced = announcement;
      this.announce.textContent = announcement;
    }
  }
}
