import { errorMessage } from '../engine/errors';
import { createCdpChromeBackend } from '../platform/chrome/cdp-backend';
import { companionAfterLaunch } from '../platform/chrome/companion-wait';
import { launchChrome } from '../platform/chrome/launch';
import { loadConfig, type ConfigFlags } from '../platform/config/load-config';
import { compose } from '../compose/compose';
import { EXIT } from './exit-codes';
import type { Io } from './io';

export async function runChromeStatus(flags: ConfigFlags, io: Io): Promise<number> {
  const app = await compose(flags);
  const { chromeUrl, chromeProfileDir } = app.config;
  io.out(
    chromeUrl.value
      ? `endpoint: ${chromeUrl.value} (from ${chromeUrl.from})\n`
      : `endpoint: auto (DeskPilot profile ${chromeProfileDir}, then Chrome's own profiles)\n`,
  );
  try {
    const [description, tabs, companion] = await Promise.all([app.chrome.describe(), app.chrome.listTabs(), app.chrome.companion()]);
    io.out(`connected: ${description}, ${tabs.length} tab${tabs.length === 1 ? '' : 's'} open\n`);
    io.out(companionLine(companion));
    return EXIT.ok;
  } catch (e) {
    io.out(`not connected: ${errorMessage(e)}\n`);
    return EXIT.failed;
  } finally {
    await app.dispose();
  }
}

export async function runChromeLaunch(flags: ConfigFlags, o: { executable?: string }, io: Io): Promise<number> {
  const config = await loadConfig(flags);
  try {
    // Chrome refuses to start as root with its sandbox on (containers, CI); say so rather than fail.
    const asRoot = process.platform === 'linux' && process.getuid?.() === 0;
    if (asRoot) io.err('warning: running as root, so Chrome is started with --no-sandbox\n');
    const launched = await launchChrome({
      profileDir: config.chromeProfileDir,
      executable: o.executable ?? config.chromePath.value,
      extraArgs: asRoot ? ['--no-sandbox'] : [],
    });
    io.out(
      `${launched.reused ? 'already running' : 'started'}: ${launched.executable ?? 'Chrome'} (pid ${launched.pid ?? 'unknown'})\n` +
        `DevTools endpoint: ${launched.browserWsUrl}\n` +
        `profile: ${config.chromeProfileDir}\n`,
    );
    // Google Chrome 137+ ignores --load-extension: look, and say how to add it when it is missing.
    const chrome = createCdpChromeBackend({ chromeUrl: launched.browserWsUrl, profileDir: config.chromeProfileDir });
    try {
      io.out(companionLine(launched.reused ? await chrome.companion() : await companionAfterLaunch(chrome)));
    } catch (e) {
      io.out(`companion extension: could not check (${errorMessage(e)})\n`);
    } finally {
      await chrome.dispose();
    }
    return EXIT.ok;
  } catch (e) {
    io.err(`deskpilot: ${errorMessage(e)}\n`);
    return EXIT.failed;
  }
}

/** Pin, mute, group, a true move and tab ages need the companion extension: whether it answers, or how to add it. */
function companionLine(status: { ok: boolean; message: string }): string {
  return status.ok ? 'companion extension: present (pin, mute, group, move and tab ages work)\n' : `companion extension: missing — ${status.message}\n`;
}
