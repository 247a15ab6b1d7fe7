/**
 * docs/guide.md in the popup's own words: every control and setting of the popup and the side panel under
 * its label (the locale's English text, in bold), and a troubleshooting section that quotes every message
 * a user can be shown (status codes, reasons a board cannot be read, the evaluation line, the permission
 * prompts, the history's and the import's notices) with what to do. A message added to or reworded in
 * public/_locales/en fails here until the guide has it.
 */
import { describe, expect, it } from 'vitest';
import { GRADES, GRADE_SCALE, GRADE_THRESHOLDS, NETWORK_GRADE_SCALE } from '../../../src/coach/grade';
import type { Evaluation, StrategyName } from '../../../src/engine/types';
import { STATUS_CODES, READ_FAILURES } from '../../../src/shared/status-message';
import { fold, localeMessages, quoted, readRepoFile, section, tables } from './pages';

const messages = localeMessages();
const guide = readRepoFile('docs/guide.md');

/** The messages a user can be shown about what happened (keys of public/_locales/en). */
const SHOWN = /^(status_|readFailure_|evaluation|err[A-Z]|permission(Declared)?Text$|import(Failed|Done|NoRoom|Evicted|Truncated|StorageFull|Error_)|history(Unreadable|Unsaved|RowUnreadable|WriteFailed)$|replay(Missing|Corrupt|Truncated)$|coachNoGrades$)/;

const VOID_ELEMENTS = new Set(['input', 'meta', 'link', 'br', 'img', 'hr', 'source']);
const LABELLED = new Set(['button', 'label', 'summary']);

/**
 * The labels of the popup's and the side panel's controls: the `data-i18n` text of a button, a field's
 * label, a section's summary (or of an element inside one of those), a choice of a select, a link. The pages
 * are the extension's own HTML: a walk over their tags with a stack of the open ones reads them.
 */
function controlLabels(): Map<string, string> {
  const labels = new Map<string, string>();
  for (const page of ['src/ui/popup/index.html', 'src/ui/panel/index.html']) {
    const open: string[] = [];
    for (const [, closing, name, attributes] of readRepoFile(page).matchAll(/<(\/?)([a-z][a-z0-9-]*)([^>]*)>/gi)) {
      const tag = name.toLowerCase();
      if (closing) {
        const at = open.lastIndexOf(tag);
        if (at >= 0) open.splice(at);
        continue;
      }
      const key = /\sdata-i18n="(\w+)"/.exec(attributes)?.[1];
      if (key && (LABELLED.has(tag) || tag === 'option' || tag === 'a' || open.some((o) => LABELLED.has(o)))) labels.set(key, messages[key]);
      if (!VOID_ELEMENTS.has(tag) && !attributes.trim().endsWith('/')) open.push(tag);
    }
  }
  // The coach's toggle is made by src/ui/coach-card.ts (the same card in both pages).
  labels.set('coach', messages.coach);
  return labels;
}

describe("docs/guide.md, in the popup's words", () => {
  it('names every control and setting of the popup and the side panel by its label, in bold', () => {
    const labels = controlLabels();
    expect([...labels.keys()]).toEqual(expect.arrayContaining(['solve', 'stop', 'step', 'hint', 'thinkTime', 'depthAuto', 'at2048Keep', 'statsTitle', 'import', 'clearHistory', 'backToHistory']));
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

  it("gives the coach's grade thresholds as the coach applies them, for every strategy and evaluation it grades", () => {
    // The grade table's columns, and the (strategy, evaluation) pairs each stands for.
    const columns: Record<string, [StrategyName, Evaluation][]> = {
      'Expectimax or Greedy, with the heuristic': [
        ['expectimax', 'heuristic'],
        ['greedy', 'heuristic'],
        ['network', 'heuristic'],
      ],
      'Expectimax with the learned network': [['expectimax', 'network']],
      [messages.strategy_network]: [['network', 'network']],
      [messages.strategy_montecarlo]: [['montecarlo', 'heuristic']],
      [messages.strategy_minimax]: [['minimax', 'heuristic']],
    };
    const scaleOf = ([strategy, evaluation]: [StrategyName, Evaluation]): number | undefined => (evaluation === 'network' ? NETWORK_GRADE_SCALE : GRADE_SCALE)[strategy];
    const graded = [
      ...Object.keys(GRADE_SCALE).map((strategy) => `${strategy} heuristic`),
      ...Object.keys(NETWORK_GRADE_SCALE).map((strategy) => `${strategy} network`),
    ];
    const covered = Object.values(columns).flatMap((pairs) => pairs.map((pair) => pair.join(' ')));
    expect(graded.filter((pair) => !covered.includes(pair)), 'the coach grades strategies docs/guide.md\'s grade table has no column for (src/coach/grade.ts): update docs/guide.md, "Coach mode"').toEqual([]);
    const table = tables(section('docs/guide.md', guide, 'Coach mode')).find((t) => t.header[0] === 'grade');
    expect(table?.header.slice(1), 'docs/guide.md, "Coach mode": the grade table\'s columns').toEqual(Object.keys(columns));
    expect(table?.rows.map((row) => row[0]), 'docs/guide.md, "Coach mode": one row per grade, by its label').toEqual(GRADES.map((grade) => messages[`grade_${grade}`]));
    const percent = (cell: string): number => Number(/(\d+(?:\.\d+)?) %/.exec(cell)?.[1]);
    for (const [i, pairs] of Object.values(columns).entries()) {
      const scales = new Set(pairs.map(scaleOf));
      expect(scales.size, `src/coach/grade.ts grades ${pairs.map((p) => p.join(' with ')).join(', ')} on different scales: split that column of docs/guide.md`).toBe(1);
      const scale = [...scales][0] ?? NaN;
      const column = (table?.rows ?? []).map((row) => row[i + 1]);
      const expected = [GRADE_THRESHOLDS.good, GRADE_THRESHOLDS.inaccuracy, GRADE_THRESHOLDS.mistake, GRADE_THRESHOLDS.mistake].map((t) => Math.round(t * scale * 1000) / 10);
      expect(column.slice(1).map(percent), `docs/guide.md, "Coach mode": the thresholds of "${table?.header[i + 1]}" (src/coach/grade.ts: scale ${scale})`).toEqual(expected);
    }
  });
});
