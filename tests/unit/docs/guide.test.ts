/**
 * docs/guide.md in the popup's own words: every control and setting of the popup and the side panel under
 * its label (the locale's English text, in bold), and a troubleshooting section that quotes every message
 * a user can be shown (status codes, reasons a board cannot be read, the evaluation line, the permission
 * prompts, the history's and the import's notices) with what to do. A message added to or reworded in
 * public/_locales/en fails here until the guide has it.
 */
import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import { STATUS_CODES, READ_FAILURES } from '../../../src/shared/status-message';
import { fold, localeMessages, quoted, readRepoFile, section } from './pages';

const messages = localeMessages();
const guide = readRepoFile('docs/guide.md');

/** The messages a user can be shown about what happened (keys of public/_locales/en). */
const SHOWN = /^(status_|readFailure_|evaluation|err[A-Z]|permission(Declared)?Text$|import(Failed|Done|NoRoom|Evicted|Truncated|StorageFull|Error_)|history(Unreadable|Unsaved|RowUnreadable|WriteFailed)$|replay(Missing|Corrupt|Truncated)$|coachNoGrades$)/;

/** The labels of the popup's and the side panel's controls: buttons, fields, choices, sections, links. */
function controlLabels(): Map<string, string> {
  const labels = new Map<string, string>();
  for (const page of ['src/ui/popup/index.html', 'src/ui/panel/index.html']) {
    const { document } = new JSDOM(readRepoFile(page)).window;
    const selector = ['button[data-i18n]', 'button [data-i18n]', 'label[data-i18n]', 'label [data-i18n]', 'summary[data-i18n]', 'summary [data-i18n]', 'option[data-i18n]', 'a[data-i18n]'].join(', ');
    for (const element of document.querySelectorAll(selector)) {
      const key = element.getAttribute('data-i18n') ?? '';
      labels.set(key, messages[key]);
    }
  }
  // The coach's toggle is made by src/ui/coach-card.ts (the same card in both pages).
  labels.set('coach', messages.coach);
  return labels;
}

describe("docs/guide.md, in the popup's words", () => {
  it('names every control and setting of the popup and the side panel by its label, in bold', () => {
    const labels = controlLabels();
    expect(labels.size).toBeGreaterThan(20);
    const text = fold(guide);
    const missing = [...labels].filter(([, label]) => !text.includes(`**${label}**`)).map(([key, label]) => `"${label}" (${key})`);
    expect(missing, `docs/guide.md does not name these controls by their labels (write them as **label**): ${missing.join(', ')}`).toEqual([]);
  });

  it('explains, under "Troubleshooting", every message a user can be shown', () => {
    const shown = Object.keys(messages).filter((key) => SHOWN.test(key));
    for (const code of STATUS_CODES) expect(shown).toContain(`status_${code}`);
    for (const failure of READ_FAILURES) expect(shown).toContain(`readFailure_${failure}`);
    const troubleshooting = fold(section('docs/guide.md', guide, 'Troubleshooting'));
    const missing = shown.filter((key) => !troubleshooting.includes(quoted(messages[key])));
    expect(
      missing.map((key) => `${key}: "${quoted(messages[key])}"`),
      'docs/guide.md, "Troubleshooting": quote each of these messages as the popup shows it ($1… written "…") and say what to do',
    ).toEqual([]);
  });
});
