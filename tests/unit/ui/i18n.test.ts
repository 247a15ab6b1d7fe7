import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { STRATEGY_NAMES } from '../../../src/engine/types';
import { GRADES } from '../../../src/coach/grade';
import { t, useMessages } from '../../../src/ui/i18n';
import { READ_FAILURES, STATUS_CODES, statusMessageKey } from '../../../src/shared/status-message';
import { RUN_STATES } from '../../../src/shared/messages';
import type { RunStatus } from '../../../src/shared/messages';
import { evaluationText, siteText, stateView } from '../../../src/ui/status-view';
import type { MessageTable } from '../../../src/ui/i18n';

const ROOT = new URL('../../..', import.meta.url).pathname;
const LOCALES = join(ROOT, 'public/_locales');
const load = (lang: string): MessageTable => JSON.parse(readFileSync(join(LOCALES, lang, 'messages.json'), 'utf8')) as MessageTable;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sources(join(dir, entry.name)) : /\.(ts|html)$/.test(entry.name) ? [join(dir, entry.name)] : [],
  );
}

/** Every message key the pages and the manifest name. */
function usedKeys(): Set<string> {
  const keys = new Set<string>();
  for (const file of sources(join(ROOT, 'src'))) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/\bt\('([A-Za-z][\w]*)'/g)) keys.add(m[1]);
    for (const m of text.matchAll(/data-i18n(?:-[a-z-]+)?="([\w]+)"/g)) keys.add(m[1]);
  }
  for (const m of readFileSync(join(ROOT, 'manifest.json'), 'utf8').matchAll(/__MSG_(\w+)__/g)) keys.add(m[1]);
  for (const d of ['up', 'down', 'left', 'right']) keys.add(`dir_${d}`);
  for (const s of STRATEGY_NAMES) keys.add(`strategy_${s}`).add(`strategyDesc_${s}`);
  for (const o of ['over', 'won', 'stopped']) keys.add(`outcome_${o}`);
  // The status codes (src/shared/status-message.ts) and the games the adapters read (src/ui/status-view.ts).
  for (const code of STATUS_CODES) keys.add(statusMessageKey(code));
  // A reading's failure (the status's detail) and why a file cannot be imported (src/ui/panel/history-view.ts).
  for (const failure of READ_FAILURES) keys.add(`readFailure_${failure}`);
  for (const reason of ['tooLarge', 'notJson', 'noList', 'csvColumns']) keys.add(`importError_${reason}`);
  for (const game of ['store', 'classic', 'canvas', 'other']) keys.add(`game_${game}`);
  // Coach mode's grades and their counts (src/ui/coach-view.ts).
  for (const g of GRADES) keys.add(`grade_${g}`).add(`coachCountOne_${g}`).add(`coachCountMany_${g}`);
  return keys;
}

describe('locales', () => {
  const en = load('en');
  const languages = readdirSync(LOCALES);

  it('has English (the default locale) and a second complete language', () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'manifest.json'), 'utf8')) as { default_locale: string; name: string };
    expect(manifest.default_locale).toBe('en');
    expect(manifest.name).toBe('__MSG_extName__');
    expect(languages).toContain('en');
    expect(languages.length).toBeGreaterThanOrEqual(2);
  });

  it('every language has every key, with the same substitutions, and nothing more', () => {
    for (const lang of languages) {
      const table = load(lang);
      expect(Object.keys(table).sort(), lang).toEqual(Object.keys(en).sort());
      for (const [key, { message }] of Object.entries(table)) {
        expect(message.trim(), `${lang}:${key}`).not.toBe('');
        const subs = (text: string) => [...text.matchAll(/\$(\d)/g)].map((m) => m[1]).sort();
        expect(subs(message), `${lang}:${key}`).toEqual(subs(en[key].message));
      }
    }
  });

  it('the German texts are translations, not English left over', () => {
    const de = load('de');
    const same = Object.keys(en).filter((key) => en[key].message === de[key].message && /[a-z]{4,}/.test(en[key].message));
    // Words that are the same in both languages.
    expect(same.sort()).toEqual(['appTitle', 'extName', 'panelTitle', 'viewLive'].filter((k) => same.includes(k)).sort());
  });

  it('has a message for every status code the content script, the background and the solver host send, in every language', () => {
    for (const lang of languages) {
      const table = load(lang);
      const missing = STATUS_CODES.filter((code) => !(statusMessageKey(code) in table));
      expect(missing, lang).toEqual([]);
    }
  });

  it('the popup speaks German in every state, the win states included', () => {
    const base: RunStatus = { state: 'idle', strategy: 'expectimax', score: 0, bestTile: 2048, moves: 1, movesPerSecond: 0, depth: 0, desyncs: 0, lastMove: null, running: false, updatedAt: 1 };
    const en = load('en');
    useMessages(load('de'));
    try {
      for (const state of RUN_STATES) {
        for (const running of [false, true]) {
          const view = stateView({ ...base, state, running });
          expect(Object.values(en).map((m) => m.message), `${state}: ${view.label}`).not.toContain(view.label);
        }
      }
      // Every message the run can show, worded in German (not the key, not the English text).
      const params = ['x', '2', 'y', 'z'];
      for (const code of STATUS_CODES) {
        const english = en[statusMessageKey(code)].message.replace(/\$(\d)/g, (_, d: string) => params[Number(d) - 1]);
        const shown = stateView({ ...base, state: 'error', message: { code, params } }).message;
        expect(shown, code).not.toBe(statusMessageKey(code));
        expect(shown, code).not.toBe(english);
      }
      expect(stateView({ ...base, state: 'won', message: { code: 'wonStopped' } })).toMatchObject({ label: 'Gewonnen!', message: 'Gewonnen — bei 2048 angehalten (Bei 2048: Anhalten)' });
      expect(stateView({ ...base, state: 'won', message: { code: 'wonNoControl' } }).message).toBe(
        'Gewonnen — spielen Sie von Hand weiter (kein „Weiterspielen“ auf dem Spielfeld)',
      );
      expect(stateView({ ...base, state: 'won', message: { code: 'wonStillShown' } }).message).toMatch(/^Gewonnen — spielen Sie von Hand weiter/);
      expect(siteText({ ...base, adapter: 'classic', site: 'localhost:8000' })).toBe('Klassisches 2048 auf localhost');
      expect(evaluationText(base, { state: 'loading', percent: 60 })).toBe('Das gelernte Netz wird geladen… 60 %');
      expect(evaluationText({ ...base, evaluation: 'heuristic' }, { state: 'loading', percent: 60 })).toBe('Bewertung: die Heuristik, bis das gelernte Netz geladen ist (60 %)');
      expect(evaluationText({ ...base, evaluation: 'heuristic' }, { state: 'failed', reason: { code: 'networkNoMemory' } })).toBe(
        'Bewertung: die Heuristik. Nicht genug Speicher für das gelernte Netz',
      );
    } finally {
      useMessages(en);
    }
  });

  it('every key the pages use exists', () => {
    const missing = [...usedKeys()].filter((key) => !(key in en));
    expect(missing).toEqual([]);
  });

  it('coach mode speaks German too: the card, the grades, the counts and the replay marks', async () => {
    const view = await import('../../../src/ui/coach-view');
    useMessages(load('de'));
    try {
      expect(view.gradeLabel('blunder')).toBe('Grober Fehler');
      expect(view.countsText({ best: 2, good: 0, inaccuracy: 1, mistake: 0, blunder: 0 })).toBe('2 beste · 1 Ungenauigkeit');
      expect(view.suggestionText({ active: true, suggestion: null, graded: 0, accuracy: null, counts: { best: 0, good: 0, inaccuracy: 0, mistake: 0, blunder: 0 }, resyncs: 0 })).toBe('Denkt nach…');
      expect(view.replayMarkText({ graded: 1, accuracy: 0, counts: { best: 0, good: 0, inaccuracy: 0, mistake: 0, blunder: 1 }, marks: 'X', resyncs: 0 }, [{ grade: 'blunder', better: 'left' }], 1, 'up')).toBe(
        'Zug 1, hoch ↑: Grober Fehler (besser: links ←)',
      );
    } finally {
      useMessages(en);
    }
  });

  it('t() substitutes $1… and shows the key itself when a message is missing', () => {
    expect(t('siteOn', 'classic', '127.0.0.1')).toBe('classic on 127.0.0.1');
    expect(t('no_such_key')).toBe('no_such_key');
    useMessages(load('de'));
    try {
      expect(t('replayPosition', 3, 10)).toBe('Zug 3 von 10');
    } finally {
      useMessages(en);
    }
  });
});
