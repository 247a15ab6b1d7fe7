/**
 * The coach card: the Coach toggle (per tab) and what coach mode reports — running accuracy, the last
 * move's grade with the better move, the suggestion, the count of each grade. Self-contained (it builds its
 * own elements and brings its own styles), so any extension page can mount it: the popup does, and the
 * side panel mounts the same card with `new CoachCard(container, onToggle)` and calls
 * `render(status)` whenever its status changes. Its texts come from `_locales` (src/ui/i18n.ts).
 */
import type { RunStatus } from '../shared/messages';
import { t } from './i18n';
import { accuracyText, countsText, gradedText, isCoaching, lastGradeText, noteText, suggestionText } from './coach-view';
import './coach-card.css';

export class CoachCard {
  private readonly root: HTMLElement;
  private readonly toggle: HTMLButtonElement;
  private readonly accuracy: HTMLElement;
  private readonly graded: HTMLElement;
  private readonly last: HTMLElement;
  private readonly suggestion: HTMLElement;
  private readonly counts: HTMLElement;
  private readonly note: HTMLElement;
  private readonly details: HTMLElement;

  /** Mounted in `container` (before `before`); `onToggle(true)` asks for coach mode on, `onToggle(false)` off. */
  constructor(container: HTMLElement, onToggle: (on: boolean) => void, before: Element | null = null) {
    const doc = container.ownerDocument;
    const make = <K extends keyof HTMLElementTagNameMap>(tag: K, className = ''): HTMLElementTagNameMap[K] => {
      const element = doc.createElement(tag);
      if (className) element.className = className;
      return element;
    };
    this.root = make('section', 'card coachbox');
    this.root.setAttribute('aria-label', t('coach'));
    const head = make('div', 'coach-head');
    const intro = make('p', 'coach-intro');
    intro.textContent = t('coachIntro');
    this.toggle = make('button', 'btn btn-coach');
    this.toggle.type = 'button';
    this.toggle.id = 'coach';
    this.toggle.textContent = t('coach');
    this.toggle.title = t('coachTitle');
    this.toggle.setAttribute('aria-pressed', 'false');
    this.toggle.addEventListener('click', () => onToggle(this.toggle.getAttribute('aria-pressed') !== 'true'));
    head.append(this.toggle, intro);

    this.details = make('div', 'coach-details');
    const line = make('p', 'coach-line');
    const label = make('strong');
    label.textContent = t('coachAccuracy');
    this.accuracy = make('span');
    this.accuracy.id = 'coach-accuracy';
    this.graded = make('span', 'summary-note');
    line.append(label, ' ', this.accuracy, ' ', this.graded);
    this.last = make('p', 'coach-last');
    this.last.setAttribute('aria-live', 'polite');
    this.suggestion = make('p', 'coach-suggestion');
    this.counts = make('p', 'summary-note');
    this.note = make('p', 'note');
    this.details.append(line, this.last, this.suggestion, this.counts, this.note);
    this.root.append(head, this.details);
    container.insertBefore(this.root, before);
  }

  render(status: RunStatus | null, enabled = true): void {
    const coaching = isCoaching(status);
    this.toggle.disabled = !enabled;
    this.toggle.setAttribute('aria-pressed', String(coaching));
    const coach = status?.coach;
    this.details.hidden = !coach;
    if (!coach) return;
    this.accuracy.textContent = accuracyText(coach.accuracy);
    this.graded.textContent = gradedText(coach.graded);
    this.last.textContent = lastGradeText(coach);
    this.last.dataset.grade = coach.last?.grade ?? '';
    this.suggestion.textContent = suggestionText(coach);
    this.suggestion.hidden = !coach.active;
    this.counts.textContent = countsText(coach.counts);
    this.note.textContent = noteText(coach.note);
    this.note.hidden = !coach.note;
  }
}
