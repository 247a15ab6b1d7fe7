/**
 * The welcome page: opened once on the first install (src/background/onboarding.ts) and by "How it works"
 * in the popup and the side panel. Static text in the UI language; the pictures of the popup in that
 * language and theme; the keyboard shortcuts as the user has them; the Firefox paragraph in Firefox only;
 * a button that opens the side panel (Chrome) or the sidebar (Firefox).
 */
import { localize, t } from '../i18n';
import { byId } from '../dom';
import { renderShortcuts } from '../shortcuts';
import { BROWSER, SHORTCUTS_PAGE, browser, hasPanel, openPanel } from '../../platform/runtime';
import { solvePictures } from './pictures';

localize(document);
// The language the texts are in (the browser picks the locale): the page's and the pictures'.
const language = t('languageCode');
document.documentElement.lang = language;

const pictures = solvePictures(language);
byId<HTMLImageElement>('shot-solve').src = pictures.light;
byId<HTMLSourceElement>('shot-solve-dark').srcset = pictures.dark;

byId('version').textContent = t('welcomeVersion', browser.runtime.getManifest().version);
byId('keys-where').textContent = t('welcomeKeysWhere', SHORTCUTS_PAGE);
byId('firefox-access').hidden = BROWSER !== 'firefox';
void renderShortcuts(document).catch(() => undefined);

// Opening the panel needs the user's gesture: the window is known before the click, so the click calls it at once.
const openButton = byId<HTMLButtonElement>('open-panel');
openButton.hidden = !hasPanel();
let windowId: number | undefined;
void browser.windows.getCurrent().then((w) => (windowId = w.id), () => undefined);
openButton.addEventListener('click', () => {
  if (windowId === undefined) return;
  openPanel(windowId).catch((err: unknown) => (byId('panel-message').textContent = err instanceof Error ? err.message : String(err)));
});
