/**
 * Where a tab's run status lives: chrome.storage.session, one key per tab, written by the background and
 * read by the popup, the side panel and the end-to-end tests; read back validated.
 */
import { RunStatusSchema } from './messages';
import type { RunStatus } from './messages';

/** chrome.storage.session key of a tab's run status (read by the popup and the e2e tests). */
export function statusKey(tabId: number): string {
  return `status:${tabId}`;
}

/** chrome.storage.session key of the document that last reported a tab's status. */
export function statusDocumentKey(tabId: number): string {
  return `statusDoc:${tabId}`;
}

/** chrome.storage.session key of a document whose run ended with a navigation (its late messages are dropped). */
export function endedDocumentKey(tabId: number): string {
  return `endedDoc:${tabId}`;
}

/** A stored status, validated (null when absent or not a status). */
export function readStatus(stored: unknown): RunStatus | null {
  const parsed = RunStatusSchema.safeParse(stored);
  return parsed.success ? parsed.data : null;
}

/** The tabs that have a stored status (the extension was started there), from storage.session's items. */
export function tabsWithStatus(items: Record<string, unknown>): number[] {
  const tabs: number[] = [];
  for (const key of Object.keys(items)) {
    const match = /^status:(\d{1,10})$/.exec(key);
    if (match) tabs.push(Number(match[1]));
  }
  return tabs;
}
