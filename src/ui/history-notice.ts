/**
 * The history's notice in words (the popup and the panel show it): one sentence per kind of game the
 * history did not keep (src/shared/game-log.ts HistoryNotice), none when it kept everything.
 */
import type { HistoryNotice, NoticeCounts } from '../shared/game-log';
import { t } from './i18n';

const MESSAGES: Readonly<Record<keyof NoticeCounts, string>> = {
  unsaved: 'historyUnsaved',
  full: 'historyFull',
  short: 'historyShort',
  future: 'historyFuture',
  unreadable: 'historyAsideFull',
  lost: 'historyLost',
};

export function noticeText(notice: HistoryNotice | null): string {
  if (!notice) return '';
  const parts: string[] = [];
  for (const [count, key] of Object.entries(MESSAGES) as [keyof NoticeCounts, string][]) if (notice[count] > 0) parts.push(t(key, notice[count]));
  return parts.join(' ');
}
