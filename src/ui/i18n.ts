/**
 * Every text of the extension's pages comes from `_locales/<lang>/messages.json` (public/_locales, copied
 * to dist/_locales) through the browser's i18n API. Outside the extension (unit tests) a table given to
 * `useMessages` answers instead. `$1`…`$9` in a message are its substitutions.
 */

export interface MessageTable {
  readonly [key: string]: { readonly message: string; readonly description?: string };
}

let fallback: MessageTable | null = null;

/** The table that answers when there is no browser i18n API (tests). */
export function useMessages(table: MessageTable | null): void {
  fallback = table;
}

function substitute(message: string, subs: readonly string[]): string {
  return message.replace(/\$(\d)/g, (whole, digit: string) => subs[Number(digit) - 1] ?? whole).replace(/\$\$/g, '$');
}

function browserMessage(key: string, subs: readonly string[]): string {
  const api = (globalThis as { chrome?: { i18n?: { getMessage?: (key: string, subs?: string[]) => string } } }).chrome?.i18n;
  if (!api?.getMessage) return '';
  try {
    return api.getMessage(key, subs.length > 0 ? [...subs] : undefined);
  } catch {
    return '';
  }
}

/** The text of `key` in the user's language; the key itself when it is missing (a visible defect, never an empty control). */
export function t(key: string, ...subs: (string | number)[]): string {
  const args = subs.map(String);
  const fromBrowser = browserMessage(key, args);
  if (fromBrowser) return fromBrowser;
  const entry = fallback?.[key];
  return entry ? substitute(entry.message, args) : key;
}

/** The UI language (for number formats and `<html lang>`). */
export function uiLanguage(): string {
  const api = (globalThis as { chrome?: { i18n?: { getUILanguage?: () => string } } }).chrome?.i18n;
  try {
    return api?.getUILanguage?.() || 'en';
  } catch {
    return 'en';
  }
}

/**
 * Fill a page's static texts: `data-i18n` (text), `data-i18n-title`, `data-i18n-aria-label`,
 * `data-i18n-placeholder`, `data-i18n-alt` name message keys.
 */
export function localize(root: ParentNode & { querySelectorAll: Document['querySelectorAll'] }): void {
  for (const element of root.querySelectorAll<HTMLElement>('[data-i18n]')) element.textContent = t(element.dataset.i18n ?? '');
  for (const element of root.querySelectorAll<HTMLElement>('[data-i18n-title]')) element.title = t(element.dataset.i18nTitle ?? '');
  for (const element of root.querySelectorAll<HTMLElement>('[data-i18n-aria-label]')) {
    element.setAttribute('aria-label', t(element.dataset.i18nAriaLabel ?? ''));
  }
  for (const element of root.querySelectorAll<HTMLElement>('[data-i18n-placeholder]')) {
    element.setAttribute('placeholder', t(element.dataset.i18nPlaceholder ?? ''));
  }
  for (const element of root.querySelectorAll<HTMLElement>('[data-i18n-alt]')) element.setAttribute('alt', t(element.dataset.i18nAlt ?? ''));
}

/** A whole number in the UI language: 12 345 / 12,345. */
export function formatInt(n: number): string {
  return Math.round(n).toLocaleString(uiLanguage());
}
