/**
 * The store descriptions (store/<lang>/description.txt, made by `npm run store-assets` from
 * tools/store-listing.ts) name the features the extension ships, in the extension's own words for each
 * language: the controls, every strategy, the learned network, the side panel's history and replays, the
 * export formats and every language the locales ship. A feature added to the manifest or the locales fails
 * here until the listing's words (tools/store-listing.ts) name it.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { STRATEGY_NAMES } from '../../../src/engine/types';
import { REPO_ROOT } from '../../support/common';
import { localeMessages, readRepoFile } from './pages';

const languages = readdirSync(join(REPO_ROOT, 'public/_locales'));
const manifest = JSON.parse(readRepoFile('manifest.json')) as { side_panel?: unknown };

/** What the description must name, in the words of `language`'s messages. */
function features(language: string): Record<string, string> {
  const m = localeMessages(language);
  const names = new Intl.DisplayNames([language], { type: 'language' });
  const wanted: Record<string, string> = {
    'the Solve button': m.solve,
    'the Stop button': m.stop,
    'the Step button': m.step,
    'the Hint button': m.hint,
    'coach mode': m.coach,
    // "Evaluation: the learned network" → "the learned network".
    'the learned network': m.evaluationNetwork.replace(/^[^:]*:\s*/, ''),
    'export as JSON': 'JSON',
    'export as CSV': 'CSV',
  };
  if (manifest.side_panel) {
    wanted["the side panel's history"] = m.viewHistory;
    wanted["the side panel's replays"] = m.viewReplay;
  }
  for (const name of STRATEGY_NAMES) wanted[`the strategy ${name}`] = m[`strategy_${name}`];
  for (const other of languages) wanted[`the language ${other}`] = names.of(other) ?? other;
  return wanted;
}

describe('the store descriptions', () => {
  it.each(languages)('store/%s/description.txt names every feature shipped', (language) => {
    const description = readRepoFile(`store/${language}/description.txt`).toLowerCase();
    const missing = Object.entries(features(language))
      .filter(([, words]) => !description.includes(words.toLowerCase()))
      .map(([feature, words]) => `${feature} ("${words}")`);
    expect(missing, `store/${language}/description.txt does not name: ${missing.join(', ')} — add them to the listing's words in tools/store-listing.ts and run npm run store-assets`).toEqual([]);
  });
});
