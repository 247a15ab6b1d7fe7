/**
 * axe-core (npm) in an extension page: the library's source is evaluated in the page over the DevTools
 * protocol, or WebDriver BiDi in Firefox (the pages' CSP allows no inline script), then `axe.run` checks
 * the whole document.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/** What the check needs of a page: a Playwright page (Chromium) and a Puppeteer page (Firefox) both have it. */
export interface EvaluatingPage {
  evaluate(script: string | (() => unknown)): Promise<unknown>;
}

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  readonly id: string;
  readonly impact: string | null;
  readonly help: string;
  readonly targets: string[];
  /** What axe says is wrong with the first element. */
  readonly summary: string;
}

/** The violations of every WCAG 2.x A/AA rule and best practice axe checks, in the page as shown. */
export async function axeViolations(page: EvaluatingPage): Promise<AxeViolation[]> {
  const loaded = await page.evaluate(() => typeof (window as unknown as { axe?: unknown }).axe === 'object');
  if (!loaded) await page.evaluate(AXE_SOURCE);
  return page.evaluate(async (): Promise<AxeViolation[]> => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: { id: string; impact: string | null; help: string; nodes: { target: string[]; failureSummary?: string }[] }[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => n.target.join(' ')), summary: v.nodes[0]?.failureSummary ?? '' }));
  }) as Promise<AxeViolation[]>;
}
