import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import CDP from 'chrome-remote-interface';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { executeOne, type ExecutionPorts } from '../../src/engine/execute';
import { TabsPartlyClosedError } from '../../src/engine/tabs-partly-closed';
import { UndoCollector } from '../../src/engine/undo-collector';
import type { TabInfo } from '../../src/protocol/context';
import { CdpChromeBackend } from '../../src/platform/chrome/cdp-backend';
import { connectChrome, type ConnectOptions } from '../../src/platform/chrome/connect';
import { launchChrome, type LaunchedChrome } from '../../src/platform/chrome/launch';
import { describeDesktop } from '../support/describe-desktop';
import { startDesktop, type Desktop } from '../support/desktop';
import { waitFor } from '../support/wait-for';

// Chrome dies while DeskPilot closes a batch of tabs: the report must say which tabs did close
// before the drop. A real Chromium (its own, so it can be killed), the real CDP backend and the
// engine's close_tab. To make "part-way" exact, the backend's real connection holds the second
// and third Target.closeTarget until Chromium has destroyed the first tab (seen on an
// independent raw CDP connection) and has then been killed with SIGKILL. (Target.closeTarget
// skips "Leave site?" handlers, so a page cannot be made to stay open instead.)

const GENEROUS_MS = 60_000;

/** pids of process group `pgid` still running (zombies excluded). */
function liveGroup(pgid: number): Promise<number[]> {
  return new Promise((resolve, reject) =>
    execFile('ps', ['-eo', 'pid=,pgid=,stat='], (err, out) => {
      if (err) return reject(err);
      resolve(
        out
          .split('\n')
          .map((l) => l.trim().split(/\s+/))
          .filter((f) => f.length === 3 && Number(f[1]) === pgid && !f[2]!.startsWith('Z'))
          .map((f) => Number(f[0])),
      );
    }),
  );
}

async function killGroup(pgid: number): Promise<void> {
  try {
    process.kill(-pgid, 'SIGKILL');
  } catch {
    return; // gone already
  }
  await waitFor(`Chromium (process group ${pgid}) to exit`, async () => (await liveGroup(pgid)).length === 0, GENEROUS_MS);
}

const CHROME_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

describeDesktop('closing tabs when Chrome dies part-way (real Chromium, killed mid-batch)', () => {
  let desk: Desktop;
  let profile: string;
  const launched: LaunchedChrome[] = [];
  const watchers: CDP.Client[] = [];

  beforeAll(async () => {
    desk = await startDesktop({ chrome: false });
    profile = await mkdtemp(path.join(os.tmpdir(), 'deskpilot-close-drop-'));
  }, 120_000);

  afterAll(async () => {
    for (const w of watchers) await w.close().catch(() => undefined);
    for (const c of launched) if (c.pid) await killGroup(c.pid);
    await desk?.stop();
    if (profile) await rm(profile, { recursive: true, force: true });
  }, 120_000);

  /**
   * A fresh Chromium with tabs Alpha, Bravo, Charlie (tab numbers 2–4), and a backend on it whose
   * real connection holds every closeTarget but Alpha's until Chromium destroyed Alpha (seen on an
   * independent raw connection) and was then killed.
   */
  async function batchThatLosesChrome() {
    const chrome = await launchChrome({ profileDir: profile, env: desk.env, extraArgs: CHROME_ARGS });
    launched.push(chrome);
    const watcher = await CDP({ target: chrome.browserWsUrl, local: true });
    watchers.push(watcher);
    watcher.on('error', () => undefined);
    const destroyed = new Set<string>();
    watcher.on('Target.targetDestroyed', (p: { targetId: string }) => destroyed.add(p.targetId));
    await watcher.Target.setDiscoverTargets({ discover: true });

    const open = async (title: string, index: number): Promise<TabInfo> => {
      const url = desk.pages.url('page', { title });
      const { targetId } = await watcher.Target.createTarget({ url, background: true });
      await waitFor(`tab ${title}`, async () => (await watcher.Target.getTargets()).targetInfos.some((t) => t.targetId === targetId && t.title === title), GENEROUS_MS);
      return { index, title, url, domain: '127.0.0.1', content_summary: null, is_active: false, window_index: 1, local_index: index, target_id: targetId };
    };
    const tabs = [await open('Alpha', 2), await open('Bravo', 3), await open('Charlie', 4)] as const;
    const alpha = tabs[0].target_id;

    let kill: Promise<void> | null = null;
    const connect = async (o: ConnectOptions) => {
      const c = await connectChrome(o);
      const send = c.conn.send.bind(c.conn);
      c.conn.send = async (method: string, params?: object, sessionId?: string) => {
        if (method === 'Target.closeTarget' && (params as { targetId?: string }).targetId !== alpha) {
          kill ??= (async () => {
            await waitFor('Chromium to destroy Alpha', async () => destroyed.has(alpha), GENEROUS_MS);
            await killGroup(chrome.pid!);
          })();
          await kill;
        }
        return send(method, params, sessionId);
      };
      return c;
    };
    const backend = new CdpChromeBackend({ chromeUrl: chrome.browserWsUrl, profileDir: profile, defaultUserDataDirs: [], connectTimeoutMs: GENEROUS_MS }, connect);
    return { tabs, backend, destroyed };
  }

  it('the backend: Chromium killed after the first of three tabs closed — closed is that one, not closed the other two', async () => {
    const { tabs, backend, destroyed } = await batchThatLosesChrome();
    const [alpha, bravo, charlie] = tabs.map((t) => t.target_id) as [string, string, string];
    try {
      const e = await backend.closeTabs([alpha, bravo, charlie]).catch((err: unknown) => err);
      expect(e).toBeInstanceOf(TabsPartlyClosedError);
      expect(e).toMatchObject({ code: 'chrome_unavailable', closed: [alpha], notClosed: [bravo, charlie], missing: [] });
      expect((e as Error).message).toMatch(/^The connection to Chrome at 127\.0\.0\.1:\d+ dropped while closing tabs \(/);
      expect((e as Error).message).toContain(`closed before the drop: ${alpha}; not closed: ${bravo}, ${charlie}.`);
      // Independently: Chromium destroyed Alpha before it died, and neither of the others.
      expect([...destroyed].filter((id) => [alpha, bravo, charlie].includes(id))).toEqual([alpha]);
    } finally {
      await backend.dispose();
    }
  }, 180_000);

  it("the engine: close_tab's result names the tab that closed and the tabs that did not (what exec reports)", async () => {
    const { tabs, backend } = await batchThatLosesChrome();
    try {
      const ports = { chrome: async () => backend } as unknown as ExecutionPorts;
      const { result, error } = await executeOne(
        { type: 'close_tab', command: { type: 'close_tab', tab_indices: [2, 3, 4] }, tabs: [...tabs] },
        { ports, snap: () => Promise.reject(new Error('no snapshot needed')), undo: new UndoCollector() },
      );
      expect(error).toBeUndefined();
      expect(result).toEqual({
        ok: false,
        message: expect.stringMatching(
          /^The connection to Chrome at 127\.0\.0\.1:\d+ dropped while closing tabs \(Chrome may have quit or crashed\); closed 1 of 3 tabs: tab 2 "Alpha" \(127\.0\.0\.1\); not closed: tab 3 "Bravo" \(127\.0\.0\.1\), tab 4 "Charlie" \(127\.0\.0\.1\)$/,
        ),
        data: { closed: [2], not_closed: [3, 4], already_gone: [], code: 'chrome_unavailable' },
      });
    } finally {
      await backend.dispose();
    }
  }, 180_000);
});
