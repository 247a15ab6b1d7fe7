/**
 * The documents page: CHANGELOG.md (the release notes), PRIVACY.md or LICENSE, as the package carries them
 * (bundled at build time: no request), chosen by `?doc=`. The Markdown is read as data
 * (src/shared/markdown.ts) and built into elements here, never as HTML; a release's heading gets the
 * anchor the popup's update line links to (`#v0.2.0`), and the release installed now is marked.
 */
import changelog from '../../../CHANGELOG.md?raw';
import license from '../../../LICENSE?raw';
import privacy from '../../../PRIVACY.md?raw';
import { parseMarkdown } from '../../shared/markdown';
import type { Block, Inline } from '../../shared/markdown';
import { releaseAnchor, releaseHeading } from '../../shared/changelog';
import { localize, t } from '../i18n';
import { byId } from '../dom';
import { browser } from '../../platform/runtime';

const DOCUMENTS = {
  changelog: { source: changelog, title: 'docChangelog' },
  privacy: { source: privacy, title: 'docPrivacy' },
  license: { source: license, title: 'docLicense' },
} as const;

type DocumentName = keyof typeof DOCUMENTS;

function documentName(search: string): DocumentName {
  const name = new URLSearchParams(search).get('doc');
  return name !== null && Object.hasOwn(DOCUMENTS, name) ? (name as DocumentName) : 'changelog';
}

function inlineNodes(spans: readonly Inline[]): Node[] {
  return spans.map((span) => {
    if (span.kind === 'text') return document.createTextNode(span.text);
    if (span.kind === 'link' && /^https:\/\//.test(span.href)) {
      const a = document.createElement('a');
      a.href = span.href;
      a.target = '_blank';
      a.rel = 'noopener noreferrer';
      a.textContent = span.text;
      return a;
    }
    const element = document.createElement(span.kind === 'code' ? 'code' : span.kind === 'strong' ? 'strong' : 'span');
    element.textContent = span.text;
    return element;
  });
}

function blockElement(block: Block, installed: string): HTMLElement {
  if (block.kind === 'heading') {
    const heading = document.createElement(`h${block.level}`);
    const release = block.level === 2 ? releaseHeading(block.text) : null;
    if (release) {
      heading.id = releaseAnchor(release.version);
      heading.textContent = release.date ? `${release.version} — ${release.date}` : release.version;
      if (release.version === installed) heading.classList.add('current');
    } else {
      heading.append(...inlineNodes(block.inline));
    }
    return heading;
  }
  if (block.kind === 'paragraph') {
    const p = document.createElement('p');
    p.append(...inlineNodes(block.inline));
    return p;
  }
  const list = document.createElement('ul');
  for (const item of block.items) {
    const li = document.createElement('li');
    li.append(...inlineNodes(item));
    list.append(li);
  }
  return list;
}

localize(document);
// The page's own words are in the language of the messages; the document itself is English.
document.documentElement.lang = t('languageCode');
const name = documentName(location.search);
const { source, title } = DOCUMENTS[name];
document.title = `${t(title)} — 2048 Autopilot`;
byId('language-note').hidden = t('languageCode') === 'en';
byId('document').lang = 'en';
for (const link of document.querySelectorAll<HTMLAnchorElement>('.doc-links a[id^="link-"]')) {
  if (link.id === `link-${name}`) link.setAttribute('aria-current', 'page');
}
const installed = browser.runtime.getManifest().version;
const blocks = parseMarkdown(source);
const elements = blocks.map((block) => blockElement(block, installed));
if (blocks[0]?.kind !== 'heading' || blocks[0].level !== 1) {
  // LICENSE has no heading of its own: the page's name stands in.
  const heading = document.createElement('h1');
  heading.textContent = t(title);
  elements.unshift(heading);
}
byId('document').replaceChildren(...elements);
document.getElementById(location.hash.slice(1))?.scrollIntoView();
