import type { Desktop } from './desktop';
import type { RawCdp } from './raw-cdp';

// Tabs for a test, read and set through the test's own CDP connection, never through DeskPilot.

/** Leaves exactly these test pages open, in this order, in one window. */
export async function onlyTabs(raw: RawCdp, desk: Desktop, titles: readonly string[]): Promise<void> {
  const before = await raw.pages();
  for (const t of titles) await raw.open(desk.pages.url('page', { title: t }));
  for (const p of before) await raw.close(p.targetId);
}

/** Whether the tab with this title is the one shown in its window. */
export async function tabVisible(raw: RawCdp, title: string): Promise<boolean> {
  const page = (await raw.pages()).find((p) => p.title === title);
  return page !== undefined && (await raw.evaluate(page.targetId, 'document.visibilityState')) === 'visible';
}
