/**
 * The store listing under store/ and the welcome page's pictures, as committed: the words are what
 * tools/store-listing.ts makes from the extension's sources now (run `npm run store-assets` after changing
 * them), every permission has its one sentence, and every PNG has the exact size its store asks for.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pngSize } from '../../../tools/png-size';
import {
  PERMISSION_JUSTIFICATIONS,
  PROMO_TILE,
  SCREENSHOT_SIZES,
  SHORT_DESCRIPTION_MAX,
  SHOT_NAMES,
  STORE_LANGUAGES,
  listingFiles,
  promoTileFile,
  screenshotFile,
} from '../../../tools/store-listing';
import { firefoxManifest } from '../../../build/firefox-manifest';
import { REPO_ROOT } from '../../support/common';

const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'manifest.json'), 'utf8')) as Parameters<typeof firefoxManifest>[0] & { commands: never };
const messages = (language: string): never => JSON.parse(readFileSync(join(REPO_ROOT, 'public/_locales', language, 'messages.json'), 'utf8')) as never;
const files = listingFiles((language) => ({ messages: messages(language), commands: manifest.commands }), { chrome: manifest, firefox: firefoxManifest(manifest) });

function size(path: string): { width: number; height: number } {
  return pngSize(readFileSync(join(REPO_ROOT, path)));
}

describe('the store listing', () => {
  it.each(Object.keys(files))('%s is what npm run store-assets makes from the sources now', (path) => {
    expect(readFileSync(join(REPO_ROOT, path), 'utf8')).toBe(files[path]);
  });

  it.each(STORE_LANGUAGES)('%s: the short description fits the Chrome Web Store summary, the long one names the shortcuts', (language) => {
    const short = files[`store/${language}/short-description.txt`].trim();
    expect(short.length).toBeGreaterThan(40);
    expect(short.length).toBeLessThanOrEqual(SHORT_DESCRIPTION_MAX);
    const long = files[`store/${language}/description.txt`];
    expect(long).toContain('Alt+Shift+S');
    expect(long).toContain('Alt+Shift+.');
    expect(long.length).toBeLessThan(16_000);
  });

  it('justifies each permission in one sentence', () => {
    for (const [permission, sentence] of Object.entries(PERMISSION_JUSTIFICATIONS)) {
      expect(sentence, permission).toMatch(/^[A-Z][^]*\.$/);
      expect(sentence.slice(0, -1), permission).not.toMatch(/[.!?]\s/);
    }
  });
});

describe('the listing images', () => {
  it.each(STORE_LANGUAGES)('%s: the screenshots are 1280x800 and 640x400, the promotional tile 440x280', (language) => {
    for (const [index, shot] of SHOT_NAMES.entries()) {
      for (const expected of SCREENSHOT_SIZES) expect(size(`store/${screenshotFile(language, index, shot, expected)}`)).toEqual(expected);
    }
    expect(size(`store/${promoTileFile(language)}`)).toEqual(PROMO_TILE);
  });

  it("the welcome page's pictures: the game's board, and the popup in each language and theme", () => {
    expect(size('src/ui/welcome/pictures/step-game.png').width).toBeGreaterThanOrEqual(240);
    for (const language of STORE_LANGUAGES) {
      for (const scheme of ['light', 'dark']) {
        const path = `src/ui/welcome/pictures/step-solve-${language}-${scheme}.png`;
        expect(existsSync(join(REPO_ROOT, path)), path).toBe(true);
        expect(size(path)).toEqual({ width: 360, height: 360 });
      }
    }
  });

  it('reads the size from the header, and refuses what is no PNG', () => {
    expect(() => pngSize(new TextEncoder().encode('GIF89a, not a PNG at all'))).toThrow(/not a PNG/);
  });
});
