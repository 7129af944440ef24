import type { BrowserTab } from '../../../engine/agent-ports';
import { call, type CdpConnection, type TargetInfo } from '../cdp-connection';
import { TIMED_OUT, evaluateInPage } from '../evaluate';
import { isListablePage } from '../tab-order';

// The tab the person is looking at. Each Chrome window shows one tab (its document is visible);
// of several windows, the one with keyboard focus is the one in use. A minimised window shows
// none, and a tab that does not answer in time is not counted.

const PROBE_TIMEOUT_MS = 3_000;

/** What a page says about itself: shown (visible) and in the focused window (hasFocus). */
const PROBE = '[document.visibilityState, document.hasFocus()]';

export async function findCurrentTab(conn: CdpConnection): Promise<{ tab: BrowserTab } | { tab: null; why: string }> {
  const { targetInfos } = await call(conn, 'Target.getTargets', { filter: [{ type: 'page' }] });
  const pages = (targetInfos as TargetInfo[]).filter((t) => t.type === 'page' && !t.subtype && isListablePage(t.url));
  if (pages.length === 0) return { tab: null, why: 'Chrome has no tab open' };
  const states = await Promise.all(pages.map((p) => evaluateInPage(conn, p.targetId, PROBE, PROBE_TIMEOUT_MS).catch(() => null)));
  const shown = pages.filter((_, i) => {
    const st = states[i];
    return st !== TIMED_OUT && Array.isArray(st) && st[0] === 'visible';
  });
  const focused = shown.filter((p) => {
    const st = states[pages.indexOf(p)] as [string, boolean];
    return st[1] === true;
  });
  const pick = focused.length === 1 ? focused[0] : shown.length === 1 ? shown[0] : undefined;
  if (pick) return { tab: { targetId: pick.targetId, url: pick.url, title: pick.title } };
  if (shown.length === 0) return { tab: null, why: 'no Chrome window shows a tab (minimised?)' };
  return { tab: null, why: `${shown.length} Chrome windows show a tab and none has focus; click into the one you mean and try again` };
}
