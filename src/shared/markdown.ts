/**
 * The little Markdown the project's own documents use (CHANGELOG.md, PRIVACY.md), as data (pure): the
 * extension shows those documents on one of its pages (src/ui/welcome/document.ts builds the elements from
 * this, never from HTML), and the release check reads the changelog's sections from it.
 *
 * Blocks: `#`…`####` headings, paragraphs (lines up to a blank line), lists of `- ` items (a line indented
 * by two spaces or more continues the item). Inline: `code`, **strong** and [text](https://…) links. Anything
 * else is kept as text: nothing in a document can become markup or a link elsewhere.
 */

export type Inline =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'code'; readonly text: string }
  | { readonly kind: 'strong'; readonly text: string }
  | { readonly kind: 'link'; readonly text: string; readonly href: string };

export type Block =
  | { readonly kind: 'heading'; readonly level: 1 | 2 | 3 | 4; readonly text: string; readonly inline: readonly Inline[] }
  | { readonly kind: 'paragraph'; readonly inline: readonly Inline[] }
  | { readonly kind: 'list'; readonly items: readonly (readonly Inline[])[] };

const HEADING = /^(#{1,4})\s+(.*?)\s*#*\s*$/;
const ITEM = /^[-*]\s+(.*)$/;
const CONTINUATION = /^\s{2,}(\S.*)$/;
const INLINE = /`([^`]+)`|\*\*([^*]+)\*\*|\[([^\]]+)\]\((https?:\/\/[^)\s]+)\)/g;

/** The inline spans of one block's text. */
export function parseInline(text: string): Inline[] {
  const out: Inline[] = [];
  let last = 0;
  for (const match of text.matchAll(INLINE)) {
    const at = match.index ?? 0;
    if (at > last) out.push({ kind: 'text', text: text.slice(last, at) });
    if (match[1] !== undefined) out.push({ kind: 'code', text: match[1] });
    else if (match[2] !== undefined) out.push({ kind: 'strong', text: match[2] });
    else out.push({ kind: 'link', text: match[3], href: match[4] });
    last = at + match[0].length;
  }
  if (last < text.length) out.push({ kind: 'text', text: text.slice(last) });
  return out;
}

/** A document's blocks, in order. */
export function parseMarkdown(source: string): Block[] {
  const blocks: Block[] = [];
  let paragraph: string[] = [];
  let items: string[] | null = null;
  const flush = (): void => {
    if (paragraph.length > 0) blocks.push({ kind: 'paragraph', inline: parseInline(paragraph.join(' ')) });
    if (items) blocks.push({ kind: 'list', items: items.map(parseInline) });
    paragraph = [];
    items = null;
  };
  for (const raw of source.replace(/\r\n?/g, '\n').split('\n')) {
    const line = raw.trimEnd();
    if (line.trim() === '') {
      flush();
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      flush();
      const text = heading[2];
      blocks.push({ kind: 'heading', level: heading[1].length as 1 | 2 | 3 | 4, text, inline: parseInline(text) });
      continue;
    }
    const item = ITEM.exec(line);
    if (item) {
      if (paragraph.length > 0) flush();
      (items ??= []).push(item[1]);
      continue;
    }
    const continuation = CONTINUATION.exec(line);
    if (items && continuation) {
      items[items.length - 1] += ` ${continuation[1]}`;
      continue;
    }
    if (items) flush();
    paragraph.push(line.trim());
  }
  flush();
  return blocks;
}

/** The plain text of inline spans (a heading's words, an anchor's source). */
export function plainText(inline: readonly Inline[]): string {
  return inline.map((span) => span.text).join('');
}
