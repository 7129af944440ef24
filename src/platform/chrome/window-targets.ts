import { DeskPilotError } from '../../engine/errors';
import type { BrowserWindowTarget } from '../../engine/ports';
import { call, isNoTargetError, sleep, type CdpConnection } from './cdp-connection';
import { companionCreate } from './companion-calls';
import type { TabSession } from './tab-manager';
import { navigateWatched, openWatched } from './watched-open';

// open_url into a chosen browser window. DevTools' Target.createTarget has no window
// parameter: it opens a tab in Chrome's last active window, or a new window. So a tab for a
// given window is made there by the companion extension (chrome.tabs.create takes a windowId)
// when it answers; without it the window is made the last active one (its shown tab is
// activated) and the tab created in the background, then checked with Browser.getWindowForTarget:
// the activation reaches Chrome through the window manager, so a tab that still landed in
// another window is closed and the round tried again, a few times at most. Either way the window
// is checked first: an id whose window is closed opens nothing.

/** The code of a browser window that is not open (any more). */
export const WINDOW_GONE = 'window_gone';

const ROUNDS = 5;

/** Throws `window_gone` unless the browser window `windowId` is open. */
export async function requireOpenWindow(conn: CdpConnection, windowId: number, nothing = 'nothing was opened'): Promise<void> {
  try {
    await call(conn, 'Browser.getWindowBounds', { windowId });
  } catch (e) {
    if (!/window not found/i.test(String(e))) throw e;
    throw new DeskPilotError(`Chrome window ${windowId} is not open (it was closed, or the id is from an older listing); ${nothing}`, WINDOW_GONE);
  }
}

/**
 * open_url after the address passed the guard: in Chrome's last active window (where
 * undefined), a new window, or window `where.windowId`.
 */
export async function openTab(s: TabSession, url: string, where: BrowserWindowTarget | undefined): Promise<{ targetId: string }> {
  if (where) return openInWindow(s, url, where);
  if (/^https?:/i.test(url)) return openWatched(s.conn, url, s.guard);
  // Not a web address (about:blank, or one the user typed): nothing it loads can redirect.
  const { targetId } = await call(s.conn, 'Target.createTarget', { url });
  await call(s.conn, 'Target.activateTarget', { targetId }).catch(() => undefined);
  return { targetId };
}

/**
 * Opens `url` in a new tab in a new window or in window `where.windowId`, loaded under the
 * DevTools watch (navigateWatched), then selected with its window raised. The caller has
 * checked the address itself against the guard.
 */
export async function openInWindow(s: TabSession, url: string, where: BrowserWindowTarget): Promise<{ targetId: string }> {
  let targetId: string;
  if ('newWindow' in where) ({ targetId } = await call(s.conn, 'Target.createTarget', { url: 'about:blank', newWindow: true }));
  else {
    await requireOpenWindow(s.conn, where.windowId);
    targetId = (await s.companion.status()).ok ? await createByCompanion(s, where.windowId) : await createByRaising(s, where.windowId);
  }
  await navigateWatched(s.conn, targetId, url, s.guard);
  await call(s.conn, 'Target.activateTarget', { targetId }).catch(() => undefined);
  return { targetId };
}

/** A blank tab at the end of the window, by the extension; its page target found by its place. */
async function createByCompanion(s: TabSession, windowId: number): Promise<string> {
  // chrome.tabs.create clamps the index to the strip's length: a large one is the end.
  const [made] = await companionCreate(s.companion, [{ windowId, index: 10_000, pinned: false }]);
  if (!made || 'error' in made) throw new DeskPilotError(`Chrome refused to open a tab in window ${windowId}: ${made && 'error' in made ? made.error : 'no answer'}`, 'failed');
  const records = await s.records();
  const page = records.find((r) => r.windowId === made.windowId && r.stripIndex === made.index);
  if (!page) throw new DeskPilotError(`a blank tab was opened in window ${windowId} but could not be found again to load the address`, 'failed');
  return page.pageId;
}

async function createByRaising(s: TabSession, windowId: number): Promise<string> {
  for (let round = 1; ; round++) {
    const shown = (await s.records()).filter((r) => r.windowId === windowId).sort((a, b) => Number(b.active) - Number(a.active))[0];
    if (!shown) throw new DeskPilotError(`Chrome window ${windowId} holds no tab DeskPilot can select to make it the last used window; nothing was opened`, 'failed');
    await call(s.conn, 'Target.activateTarget', { targetId: shown.pageId });
    const { targetId } = await call(s.conn, 'Target.createTarget', { url: 'about:blank', background: true });
    const landed = await call(s.conn, 'Browser.getWindowForTarget', { targetId }).then((r) => r.windowId, () => null);
    if (landed === windowId) return targetId;
    await call(s.conn, 'Target.closeTarget', { targetId }).catch((e: unknown) => {
      if (!isNoTargetError(e)) throw e;
    });
    if (round === ROUNDS) {
      throw new DeskPilotError(`Chrome kept opening the tab in another window than ${windowId} (the window did not become its last used one); nothing was opened`, 'failed');
    }
    // The window manager has not passed the activation on yet: give it a moment more each round.
    await sleep(40 * round);
  }
}
