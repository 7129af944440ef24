import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { createCdpChromeBackend, type CdpChromeBackend } from '../../src/platform/chrome/cdp-backend';
import { describeDesktop } from '../support/describe-desktop';
import { startDesktop, type Desktop } from '../support/desktop';
import { RawCdp } from '../support/raw-cdp';
import { startRedirectPages, type RedirectPages } from '../support/redirect-pages';

// The CDP backend never opens a tab on the browser's own DevTools endpoint, however it is
// written or reached. Real Chromium; every effect checked through a separate CDP connection.

describeDesktop('open_url keeps away from the DevTools endpoint (real Chromium)', () => {
  let desk: Desktop;
  let raw: RawCdp;
  let pages: RedirectPages;
  let backend: CdpChromeBackend;
  let profileDir: string;
  let victim: string;
  let port: number;

  beforeAll(async () => {
    [desk, pages] = await Promise.all([startDesktop({ chrome: true }), startRedirectPages()]);
    raw = await RawCdp.connect(desk.chrome!.browserWsUrl);
    port = desk.chrome!.port;
    profileDir = await mkdtemp(path.join(os.tmpdir(), 'deskpilot-guard-'));
    backend = createCdpChromeBackend({ chromeUrl: `http://127.0.0.1:${port}`, profileDir, defaultUserDataDirs: [] });
  });

  afterAll(async () => {
    await backend?.dispose();
    await raw?.dispose();
    await Promise.all([desk?.stop(), pages?.stop()]);
    if (profileDir) await rm(profileDir, { recursive: true, force: true });
  });

  beforeEach(async () => {
    const before = await raw.pages();
    victim = await raw.open(pages.url('page') + '?title=Victim');
    for (const p of before) await raw.close(p.targetId);
  });

  const alive = async () => (await raw.pages()).some((p) => p.targetId === victim);

  it.each([
    ['127.0.0.1', (p: number, id: string) => `http://127.0.0.1:${p}/json/close/${id}`],
    ['localhost', (p: number, id: string) => `http://localhost:${p}/json/close/${id}`],
    ['evil.localhost', (p: number, id: string) => `http://evil.localhost:${p}/json/close/${id}`],
    ['0.0.0.0', (p: number, id: string) => `http://0.0.0.0:${p}/json/close/${id}`],
    ['[::ffff:127.0.0.1]', (p: number, id: string) => `http://[::ffff:127.0.0.1]:${p}/json/close/${id}`],
    ['2130706433', (p: number, id: string) => `http://2130706433:${p}/json/close/${id}`],
  ])('refuses the endpoint as %s/json/close/<id>, with the reason, and the tab stays open', async (_, make) => {
    const url = make(port, victim);
    await expect(backend.openUrl(url)).rejects.toThrow(`refused: ${url} is DeskPilot's own DevTools endpoint; opening it would let a page control the browser`);
    expect(await alive()).toBe(true);
    expect((await raw.pages()).map((p) => p.targetId)).toEqual([victim]);
  });

  it('navigationRefusal answers the same question without opening anything', async () => {
    expect(await backend.navigationRefusal(`http://localhost:${port}/json/list`)).toMatch(/^refused: .* is DeskPilot's own DevTools endpoint/);
    expect(await backend.navigationRefusal(pages.url('page'))).toBeNull();
  });

  it('a page that redirects (HTTP 302) to the endpoint is stopped before the request is sent, and its tab closed', async () => {
    const start = pages.url('302', `http://127.0.0.1:${port}/json/close/${victim}`);
    await expect(backend.openUrl(start)).rejects.toThrow(
      `refused: ${start} redirected to http://127.0.0.1:${port}/json/close/${victim}, which is DeskPilot's own DevTools endpoint; following it would let a page control the browser; the tab was closed`,
    );
    expect(await alive()).toBe(true);
    await raw.waitFor(async () => (await raw.pages()).length === 1);
    expect((await raw.pages()).map((p) => p.targetId)).toEqual([victim]);
  });

  it('an ordinary page opens as before: one tab, loaded, with nothing before it in its history', async () => {
    const url = `${pages.base}/page?title=Ordinary`;
    const { targetId } = await backend.openUrl(url);
    await raw.waitFor(async () => (await raw.pages()).some((p) => p.targetId === targetId && p.title === 'Ordinary'));
    expect(await raw.evaluate(targetId, 'history.length')).toBe(1);
    expect(await alive()).toBe(true);
  });
});
