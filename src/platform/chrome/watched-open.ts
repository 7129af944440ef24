import type { Protocol } from 'devtools-protocol';
import { DeskPilotError } from '../../engine/errors';
import { call, CdpTimeoutError, sleep, type CdpConnection, type CdpListener } from './cdp-connection';
import { refusalMessage, type DevtoolsGuard, type Refusal } from './devtools-guard';

// open_url for a web address: the tab opens blank, and its first navigation runs with the
// Fetch domain pausing every document request, so an HTTP redirect to a refused URL is failed
// before the request leaves the browser. The blank page is then dropped from the tab's history,
// so the tab looks as if opened directly. The watch ends when the
// navigation commits (bounded): from then on the tab is the user's, like any other.

export const WATCH_TIMEOUT_MS = 10_000;

/** The code of an open_url refused because it is, or leads to, a DevTools endpoint. */
export const URL_REFUSED = 'url_refused';

export async function openWatched(conn: CdpConnection, url: string, guard: DevtoolsGuard, timeoutMs = WATCH_TIMEOUT_MS): Promise<{ targetId: string }> {
  // Without newWindow/background Chrome adds a selected tab to its last active window.
  const { targetId } = await call(conn, 'Target.createTarget', { url: 'about:blank' });
  // A selected tab in a window behind other apps is still invisible: raise it like activateTab.
  await call(conn, 'Target.activateTarget', { targetId }).catch(() => undefined);
  await navigateWatched(conn, targetId, url, guard, timeoutMs);
  return { targetId };
}

/**
 * Navigates a blank tab DeskPilot just opened to `url` under the same watch (a redirect to a
 * refused URL fails, and the tab is closed). Throws the refusal.
 */
export async function navigateWatched(conn: CdpConnection, targetId: string, url: string, guard: DevtoolsGuard, timeoutMs = WATCH_TIMEOUT_MS): Promise<void> {
  const { sessionId } = await call(conn, 'Target.attachToTarget', { targetId, flatten: true });
  let refused: Refusal | null = null;
  const event = `Fetch.requestPaused.${sessionId}`;
  const onPaused: CdpListener = (p: Protocol.Fetch.RequestPausedEvent) => {
    void (async () => {
      const hit = await guard.refusal(p.request.url);
      if (hit && p.frameId === targetId) refused ??= hit;
      await (hit
        ? call(conn, 'Fetch.failRequest', { requestId: p.requestId, errorReason: 'BlockedByClient' }, { sessionId })
        : call(conn, 'Fetch.continueRequest', { requestId: p.requestId }, { sessionId }));
    })().catch(() => undefined); // the session went away: Chrome lets the request go on its own
  };
  conn.on(event, onPaused);
  try {
    await call(conn, 'Fetch.enable', { patterns: [{ urlPattern: '*', resourceType: 'Document', requestStage: 'Request' }] }, { sessionId });
    const committed = await call(conn, 'Page.navigate', { url }, { sessionId, timeoutMs }).then(
      (r: { errorText?: string }) => !r.errorText,
      (e: unknown) => {
        // Still loading at the deadline: the tab is open, the watch ends here.
        if (!(e instanceof CdpTimeoutError)) throw e;
        return false;
      },
    );
    // Chrome replaces the blank page in the history only when the navigation starts before the
    // blank page has committed; on a busy browser it has, and Back would lead to a blank tab.
    if (committed && !refused) await dropBlankEntry(conn, targetId).catch(() => undefined);
  } finally {
    conn.removeListener(event, onPaused);
    await call(conn, 'Target.detachFromTarget', { sessionId }).catch(() => undefined);
  }
  if (refused) {
    // The tab's history now holds the endpoint's URL (as a blocked page): a reload would send it.
    await call(conn, 'Target.closeTarget', { targetId }).catch(() => undefined);
    throw new DeskPilotError(`${refusalMessage(refused, url)}; the tab was closed`, URL_REFUSED);
  }
}

/** How long the page's own entry may take to replace the blank one in the tab's history. */
const HISTORY_WAIT_MS = 5_000;

/**
 * Once the navigation has become the tab's current history entry (Page.navigate may answer
 * before), clears what lies before it — the blank page the tab was opened with — so Back does
 * not lead there. Each look attaches afresh: a navigation to another site swaps the tab's page,
 * and a session attached before the swap answers "Not attached to an active page". Bounded: a
 * page still not current by then keeps its history as it is.
 */
async function dropBlankEntry(conn: CdpConnection, targetId: string): Promise<void> {
  const deadline = Date.now() + HISTORY_WAIT_MS;
  for (;;) {
    const { sessionId } = await call(conn, 'Target.attachToTarget', { targetId, flatten: true });
    try {
      const h: { currentIndex: number; entries: Array<{ url: string }> } | null = await call(conn, 'Page.getNavigationHistory', undefined, { sessionId }).catch(() => null);
      const current = h?.entries[h.currentIndex]?.url ?? 'about:blank';
      if (h && current !== 'about:blank') {
        if (h.entries.length > 1) await call(conn, 'Page.resetNavigationHistory', undefined, { sessionId });
        return;
      }
    } finally {
      await call(conn, 'Target.detachFromTarget', { sessionId }).catch(() => undefined);
    }
    if (Date.now() > deadline) return;
    await sleep(50);
  }
}
