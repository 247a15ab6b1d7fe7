import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseMarkdown, parseInline } from '../../../src/shared/markdown';
import type { Block, Inline } from '../../../src/shared/markdown';
import { parseChangelog, releaseHeading } from '../../../src/shared/changelog';

const root = new URL('../../../', import.meta.url);
const read = (file: string): string => readFileSync(new URL(file, root), 'utf8');

function spans(block: Block): readonly Inline[] {
  if (block.kind === 'list') return block.items.flat();
  return block.inline;
}

describe('the documents’ Markdown', () => {
  it('reads headings, paragraphs, lists with continued items, and inline code, strong and links', () => {
    const blocks = parseMarkdown('# Title\n\nA paragraph\nover two lines.\n\n- one `code`\n  continued\n- two **strong** and [a link](https://example.org/x)\n\n### Small');
    expect(blocks).toEqual([
      { kind: 'heading', level: 1, text: 'Title', inline: [{ kind: 'text', text: 'Title' }] },
      { kind: 'paragraph', inline: [{ kind: 'text', text: 'A paragraph over two lines.' }] },
      {
        kind: 'list',
        items: [
          [{ kind: 'text', text: 'one ' }, { kind: 'code', text: 'code' }, { kind: 'text', text: ' continued' }],
          [{ kind: 'text', text: 'two ' }, { kind: 'strong', text: 'strong' }, { kind: 'text', text: ' and ' }, { kind: 'link', text: 'a link', href: 'https://example.org/x' }],
        ],
      },
      { kind: 'heading', level: 3, text: 'Small', inline: [{ kind: 'text', text: 'Small' }] },
    ]);
  });

  it('keeps anything else as text: no markup comes through', () => {
    expect(parseInline('<img src=x onerror=alert(1)> *x* [y](javascript:alert(1)')).toEqual([{ kind: 'text', text: '<img src=x onerror=alert(1)> *x* [y](javascript:alert(1)' }]);
  });

  it.each(['CHANGELOG.md', 'PRIVACY.md', 'LICENSE'])('%s uses only what the documents page shows (no Markdown left in its text)', (file) => {
    const blocks = parseMarkdown(read(file));
    expect(blocks.length).toBeGreaterThan(2);
    for (const block of blocks) {
      for (const span of spans(block)) {
        if (span.kind === 'text') expect(span.text, file).not.toMatch(/`|\*\*|\]\(|^#|^- /);
        if (span.kind === 'link') expect(span.href, file).toMatch(/^https:\/\//);
      }
    }
  });
});

describe('the changelog', () => {
  it('reads release headings with and without brackets and dates', () => {
    expect(releaseHeading('[0.2.0] - 2026-11-27')).toEqual({ version: '0.2.0', date: '2026-11-27' });
    expect(releaseHeading('0.2.0 – 2026-11-27')).toEqual({ version: '0.2.0', date: '2026-11-27' });
    expect(releaseHeading('[Unreleased]')).toEqual({ version: 'Unreleased', date: null });
    expect(releaseHeading('Notes')).toBeNull();
  });

  it("CHANGELOG.md: Keep a Changelog's form, newest first, package.json's version on top", () => {
    const sections = parseChangelog(read('CHANGELOG.md'));
    const { version } = JSON.parse(read('package.json')) as { version: string };
    expect(sections[0].version).toBe(version);
    for (const section of sections) expect(section.date, section.version).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const dates = sections.map((s) => s.date ?? '');
    expect([...dates].sort().reverse()).toEqual(dates);
    expect(sections[0].groups.map((g) => g.title)).toContain('Added');
  });
});
