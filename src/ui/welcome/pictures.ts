/**
 * The welcome page's picture of the popup, per UI language and theme. The PNGs are screenshots of the
 * real popup on the classic game, made by `npm run store-assets` (tools/store-assets.ts), which writes
 * them here.
 */
import deDark from './pictures/step-solve-de-dark.png';
import deLight from './pictures/step-solve-de-light.png';
import enDark from './pictures/step-solve-en-dark.png';
import enLight from './pictures/step-solve-en-light.png';

/** The languages the pictures exist in (the extension's locales). */
type PictureLanguage = 'en' | 'de';

const SOLVE: Record<PictureLanguage, { light: string; dark: string }> = {
  en: { light: enLight, dark: enDark },
  de: { light: deLight, dark: deDark },
};

/** The popup pictures for the language of the messages ("de", "en"): German for German, English otherwise. */
export function solvePictures(language: string): { light: string; dark: string } {
  return language.toLowerCase().startsWith('de') ? SOLVE.de : SOLVE.en;
}
