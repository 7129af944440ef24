import CDP from 'chrome-remote-interface';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runAgent } from '../../src/engine/agent';
import type { PageSnapshot } from '../../src/engine/agent-ports';
import type { CdpAgentBrowser } from '../../src/platform/chrome/agent';
import type { AgentPages } from '../agent-pages/serve';
import { startAgentRig, type AgentRig } from '../support/agent-rig';
import { describeDesktop } from '../support/describe-desktop';
import { scriptedModels, tool } from './scripted';

// The snapshot's size budget on a page where it has to choose: tests/agent-pages/dense.html puts
// 3,000 tiny buttons (60 columns x 50 rows) inside the first viewport, so nothing is "far" and
// only the budget can cut. Real Chromium; positions are checked through a raw CDP connection.
//
// The relevance rule (src/platform/chrome/agent/render.ts, renderSnapshot): elements that are in
// the viewport (hit-tested) rank first, all equal; the others rank by their vertical distance
// from the viewport; ties go by document order. Lines are kept in that order until the first
// one that does not fit, so the kept set is a prefix of the ranking, and they are listed in
// document order. On a page that fits the viewport that means: the first elements in DOCUMENT
// order — the top-left ones only because this grid is row-major (the ?rtl variant shows it).

const BUDGET = 5_000;

interface Button {
  label: string;
  x: number;
  y: number;
}

const labelsOf = (snap: PageSnapshot) => [...snap.text.matchAll(/^<button id="\d+">(r\d+c\d+)<\/button>$/gm)].map((m) => m[1]!);

describeDesktop('agent snapshot size budget on a dense page (real Chromium)', () => {
  let pages: AgentPages;
  let browser: CdpAgentBrowser;
  let raw: CDP.Client;

  async function rawEval<T>(targetId: string, expression: string): Promise<T> {
    const { sessionId } = await raw.Target.attachToTarget({ targetId, flatten: true });
    try {
      const r = (await raw.send('Runtime.evaluate', { expression, returnByValue: true }, sessionId)) as { result: { value: T } };
      return r.result.value;
    } finally {
      await raw.Target.detachFromTarget({ sessionId }).catch(() => undefined);
    }
  }

  /** Every button of the grid in document order, with its box, and the page's viewport. */
  async function layout(targetId: string) {
    return rawEval<{ vw: number; vh: number; scrollH: number; buttons: Button[] }>(
      targetId,
      `({ vw: innerWidth, vh: innerHeight, scrollH: document.documentElement.scrollHeight,
          buttons: [...document.querySelectorAll('#grid button')].map((b) => { const r = b.getBoundingClientRect();
            if (r.right > innerWidth || r.bottom > innerHeight || r.left < 0 || r.top < 0) return null;
            return { label: b.textContent, x: r.left, y: r.top }; }) })`,
    );
  }

  let rig: AgentRig | undefined;
  beforeAll(async () => {
    rig = await startAgentRig();
    ({ pages, raw, browser } = rig);
  });

  afterAll(async () => {
    await rig?.stop();
  });

  it(`keeps a ${BUDGET}-char budget on 3,000 in-view elements: the first ones in document order (here the top-left), the cut counted`, async () => {
    const { targetId } = await browser.openTab(pages.url('/dense.html'));
    const page = await layout(targetId);
    // The premise, checked independently: 3,000 buttons, every one inside the viewport, no scrolling.
    expect(page.buttons).toHaveLength(3000);
    expect(page.buttons.every((b) => b !== null)).toBe(true);
    expect(page.scrollH).toBeLessThanOrEqual(page.vh);

    // Without a budget that bites, everything is listed: none of them is far.
    const full = await browser.snapshot(targetId, { maxChars: 1_000_000, maskPii: true });
    expect(full.truncated).toBe(false);
    expect(full.elementCount).toBe(3000);
    expect(labelsOf(full)).toEqual(page.buttons.map((b) => b.label));
    expect(full.text.length).toBeGreaterThan(90_000);
    expect(full.text).not.toMatch(/more (above|below)/);

    const small = await browser.snapshot(targetId, { maxChars: BUDGET, maskPii: true });
    expect(small.text.length).toBeLessThanOrEqual(BUDGET);
    expect(small.truncated).toBe(true);
    expect(small.text.endsWith('</browsing_context>')).toBe(true);
    const kept = labelsOf(small);
    expect(small.elementCount).toBe(kept.length);
    expect(kept.length).toBeGreaterThan(100); // the budget is used, not given up on
    expect(small.text).toContain(`(snapshot cut to the size budget: ${3000 - kept.length} elements near the viewport not listed)`);
    // The cut elements are in the viewport: no scrolling would show them, so none is called "below".
    expect(small.text).not.toMatch(/more (above|below)/);

    // Kept: a prefix of document order ...
    expect(kept).toEqual(page.buttons.slice(0, kept.length).map((b) => b.label));
    // ... which on this row-major grid is the top-left in reading order: whole rows from the top,
    // then the next row from the left. Every kept button comes before every cut one.
    const box = new Map(page.buttons.map((b) => [b.label, b]));
    const keptBoxes = kept.map((l) => box.get(l)!);
    const cutBoxes = page.buttons.filter((b) => !kept.includes(b.label));
    const lastKept = keptBoxes.at(-1)!;
    const before = (a: Button, b: Button) => a.y < b.y || (a.y === b.y && a.x < b.x);
    expect(keptBoxes.every((b) => b === lastKept || before(b, lastKept))).toBe(true);
    expect(cutBoxes.every((b) => before(lastKept, b))).toBe(true);
    expect(Math.max(...keptBoxes.map((b) => b.y))).toBeLessThan(page.vh / 10);
    expect(keptBoxes[0]).toMatchObject({ label: 'r1c1', x: 0, y: 0 });
  });

  it('the rule is document order among in-view elements, not distance to a corner: a right-to-left grid keeps the top-right', async () => {
    const { targetId } = await browser.openTab(pages.url('/dense.html?rtl'));
    const page = await layout(targetId);
    expect(page.buttons.every((b) => b !== null)).toBe(true);
    const small = await browser.snapshot(targetId, { maxChars: BUDGET, maskPii: true });
    const kept = labelsOf(small);
    expect(small.truncated).toBe(true);
    expect(kept).toEqual(page.buttons.slice(0, kept.length).map((b) => b.label));
    // r1c1 is now in the top-RIGHT corner, and the partial last row is filled from the right.
    const box = new Map(page.buttons.map((b) => [b.label, b]));
    const r1c1 = box.get('r1c1')!;
    expect(r1c1.y).toBe(0);
    expect(r1c1.x).toBe(Math.max(...page.buttons.map((b) => b.x)));
    const lastRow = kept.filter((l) => l.startsWith(/^r\d+/.exec(kept.at(-1)!)![0] + 'c'));
    expect(lastRow.length).toBeLessThan(60);
    expect(Math.min(...lastRow.map((l) => box.get(l)!.x))).toBeGreaterThan(Math.min(...page.buttons.map((b) => b.x)));
  });

  it("through the agent loop: snapshotChars 5,000 gives the executor a snapshot of at most 5,000 chars inside its <page_data> wrapper", async () => {
    const models = scriptedModels(
      [{ steps: ['Open the dense page', 'Report'], message: 'ok' }],
      [tool({ action: 'open_tab', url: pages.url('/dense.html') }), tool({ action: 'done', answer: 'seen' })],
    );
    const result = await runAgent({
      goal: 'look at the grid',
      browser,
      models,
      options: { snapshotChars: BUDGET },
      approve: async () => ({ approved: true }),
      confirm: async () => false,
    });
    expect(result.status).toBe('done');
    const seen = models.nextRequests[1]!.snapshots;
    expect(seen).toHaveLength(1);
    const m = /^(<page_data [^>]*>)\n([\s\S]*)\n<\/page_data>$/.exec(seen[0]!.text);
    expect(m).not.toBeNull();
    expect(m![2]!.length).toBeLessThanOrEqual(BUDGET);
    expect(m![2]).toContain('(snapshot cut to the size budget: ');
    expect(seen[0]!.text.length).toBeLessThanOrEqual(BUDGET + m![1]!.length + '\n\n</page_data>'.length);
    expect(seen[0]!.truncated).toBe(true);
  });
});
