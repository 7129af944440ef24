import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { WAIT_MS } from '../support/wait-for';

// axe-core's standard accessibility rules (WCAG 2.x A and AA) run inside a page of the real
// renderer. The library is evaluated through the DevTools protocol, which the page's Content
// Security Policy does not apply to, so the page is checked exactly as shipped.

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  /** CSS selectors of the offending elements. */
  nodes: string[];
}

let source: string | null = null;

/** The violations of the page as it is now (empty: none found), once its colour transitions are over. */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  source ??= (createRequire(__filename)('axe-core') as { source: string }).source;
  // Mid-transition (a scheme just switched, a button just enabled) colours are neither old nor new.
  // (A function, not a string: the page's Content Security Policy forbids eval.)
  await page.waitForFunction(
    () =>
      (globalThis as unknown as { document: { getAnimations(): Array<{ playState: string; constructor: { name: string } }> } }).document
        .getAnimations()
        .every((a) => a.constructor.name !== 'CSSTransition' || a.playState !== 'running'),
    undefined,
    { timeout: WAIT_MS },
  );
  if (!(await page.evaluate('typeof window.axe === "object"'))) await page.evaluate(source);
  return (await page.evaluate(`axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] }, resultTypes: ['violations'] })
    .then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact ?? null, help: v.help, nodes: v.nodes.map((n) => n.target.join(' ')) })))`)) as AxeViolation[];
}

/** One line per violation, for a failure message or a report. */
export const formatViolations = (vs: readonly AxeViolation[]): string[] => vs.map((v) => `${v.id} (${v.impact ?? '?'}): ${v.help} — ${v.nodes.join(', ')}`);
