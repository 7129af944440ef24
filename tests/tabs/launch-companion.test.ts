import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createCdpChromeBackend, type CdpChromeBackend } from '../../src/platform/chrome/cdp-backend';
import { companionAfterLaunch } from '../../src/platform/chrome/companion-wait';
import { launchChrome, type LaunchedChrome } from '../../src/platform/chrome/launch';
import { describeDesktop } from '../support/describe-desktop';
import { startDesktop, type Desktop } from '../support/desktop';
import { stopGroup } from '../support/process-group';
import { WAIT_MS } from '../support/wait-for';
import { CompanionView } from './companion-view';

// `deskpilot chrome launch` loads the companion extension into DeskPilot's profile (Chromium
// honours --load-extension), and DeskPilot finds it on a fresh start — its worker not running
// yet — before anything else has touched it.

const CHROME_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

describeDesktop('launching Chrome with the companion extension', () => {
  let desk: Desktop;
  let profile: string;
  let chrome: LaunchedChrome | null = null;
  let backend: CdpChromeBackend | null = null;

  beforeAll(async () => {
    desk = await startDesktop({ chrome: false });
    profile = await mkdtemp(path.join(os.tmpdir(), 'deskpilot-launch-companion-'));
  });

  afterAll(async () => {
    await backend?.dispose();
    if (chrome?.pid) await stopGroup(chrome.pid);
    await desk?.stop();
    if (profile) await rm(profile, { recursive: true, force: true });
  });

  it('loads it; DeskPilot wakes its worker itself and reads the tabs through it', async () => {
    chrome = await launchChrome({ profileDir: profile, env: desk.env, extraArgs: CHROME_ARGS });
    backend = createCdpChromeBackend({ chromeUrl: chrome.browserWsUrl, profileDir: profile });
    // As `deskpilot chrome launch` does: the extension registers a moment after the port opens.
    expect(await companionAfterLaunch(backend, WAIT_MS)).toMatchObject({ ok: true });
    const listing = await backend.listTabsInDetail();
    expect(listing.companion).toMatchObject({ ok: true });
    expect(listing.usage).toEqual({ source: 'companion', watchedSince: null });
    expect(listing.tabs.length).toBeGreaterThan(0);
    expect(listing.tabs.every((t) => typeof t.lastUsed === 'number' && t.pinned === false && t.muted === false && t.group === null)).toBe(true);

    // The extension's own view agrees (read over a separate connection, after DeskPilot's).
    const view = await CompanionView.connect(chrome.browserWsUrl);
    try {
      const seen = await view.tabs();
      expect(seen.map((t) => t.lastAccessed).sort()).toEqual(listing.tabs.map((t) => t.lastUsed).sort());
    } finally {
      await view.close();
    }
  });
});
