/**
 * The keyboard shortcuts as the user has them, written into the pages that name them (popup, side panel,
 * welcome page).
 */
import { SHORTCUTS_PAGE, browser } from '../platform/runtime';
import { shortcutKeys } from './status-view';
import { t } from './i18n';

/**
 * Fill every `.shortcut[data-command]` element under `root` with the keys the user has for that command
 * (the browser's shortcuts page can change them), or say that there is none; the page's own text (the
 * keys the manifest suggests) stays where the browser does not answer.
 */
export async function renderShortcuts(root: ParentNode): Promise<void> {
  const commands = await browser.commands.getAll();
  for (const element of root.querySelectorAll<HTMLElement>('.shortcut[data-command]')) {
    const command = commands.find((c) => c.name === element.dataset.command);
    if (!command) continue;
    const keys = shortcutKeys(command.shortcut);
    if (keys.length === 0) {
      element.textContent = t('noKeyFor');
      element.title = t('setKeyHint', SHORTCUTS_PAGE);
      continue;
    }
    const parts: (Node | string)[] = [];
    keys.forEach((key, index) => {
      if (index > 0) parts.push('+');
      const kbd = document.createElement('kbd');
      kbd.textContent = key;
      parts.push(kbd);
    });
    element.replaceChildren(...parts);
  }
}
