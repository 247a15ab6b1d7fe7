/**
 * Reading the documentation pages for the tests that hold them to the code (tests/unit/docs): a page's
 * sections by heading, its tables as rows of cells, its prose with the line breaks of the source folded.
 * Every failure of those tests names the page to update.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../../support/common';

export function readRepoFile(path: string): string {
  return readFileSync(join(REPO_ROOT, path), 'utf8');
}

/** The English (default) messages of the extension: key → text. */
export function localeMessages(language = 'en'): Record<string, string> {
  const raw = JSON.parse(readRepoFile(`public/_locales/${language}/messages.json`)) as Record<string, { message: string }>;
  return Object.fromEntries(Object.entries(raw).map(([key, value]) => [key, value.message]));
}

/** Whitespace (line breaks of wrapped prose included) folded to single spaces. */
export function fold(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** The text under the heading `title` (any level), up to the next heading of the same or a higher level. */
export function section(page: string, markdown: string, title: string): string {
  const lines = markdown.split('\n');
  const start = lines.findIndex((line) => /^#{1,6} /.test(line) && line.replace(/^#+ /, '').trim() === title);
  if (start < 0) throw new Error(`${page} has no section "${title}": give it one (the docs tests read it)`);
  const level = /^#+/.exec(lines[start])?.[0].length ?? 1;
  const end = lines.findIndex((line, i) => i > start && new RegExp(`^#{1,${level}} `).test(line));
  return lines.slice(start + 1, end < 0 ? undefined : end).join('\n');
}

/** The cells of a table row ("| a | b\\|c |" → ["a", "b|c"]). */
function cells(row: string): string[] {
  return row
    .trim()
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split(/(?<!\\)\|/)
    .map((cell) => cell.trim().replace(/\\\|/g, '|'));
}

/** Every table of `markdown`: its header cells and its rows' cells (the delimiter row left out). */
export function tables(markdown: string): { header: string[]; rows: string[][] }[] {
  const found: { header: string[]; rows: string[][] }[] = [];
  let current: string[] = [];
  const flush = (): void => {
    if (current.length >= 2 && /^\|?\s*:?-{3,}/.test(current[1].trim())) {
      found.push({ header: cells(current[0]), rows: current.slice(2).map(cells) });
    }
    current = [];
  };
  for (const line of markdown.split('\n')) {
    if (line.trim().startsWith('|')) current.push(line);
    else flush();
  }
  flush();
  return found;
}

/** `markdown` without its fenced code blocks. */
export function prose(markdown: string): string {
  return markdown.replace(/^```[^\n]*\n[^]*?^```$/gm, '');
}

/** The texts in backticks of `text` (fenced code blocks left out), in order. */
export function codeSpans(text: string): string[] {
  return [...prose(text).matchAll(/`([^`\n]+)`/g)].map((match) => match[1]);
}

/** A locale message as the pages quote it: its placeholders ($1, $2…) written "…". */
export function quoted(message: string): string {
  return fold(message.replace(/\$\d/g, '…'));
}
