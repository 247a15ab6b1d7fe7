/**
 * Test helpers: small hand-written DOMs in jsdom, and the saved DOMs of the fixture pages through the
 * FIXTURES helper's loader (tests/fixtures/dom/load-snapshot.ts: declarative shadow roots attached).
 * No page script runs.
 */
import { JSDOM } from 'jsdom';
import type { AdapterContext } from '../../../src/content/adapters/types';
import { attachDeclarativeShadowRoots } from '../../fixtures/dom/load-snapshot';

export { loadSnapshot, readExpected, readSnapshotPng } from '../../fixtures/dom/load-snapshot';
export type { GameSnapshotName } from '../../fixtures/dom/load-snapshot';

export function domFromHtml(html: string, url = 'http://127.0.0.1/game/'): JSDOM {
  const dom = new JSDOM(html, { url });
  attachDeclarativeShadowRoots(dom.window.document);
  return dom;
}

export function contextOf(dom: { window: unknown }): AdapterContext {
  const window = dom.window as Window;
  return { document: window.document, window };
}
