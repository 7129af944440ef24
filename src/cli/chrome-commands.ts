import { errorMessage } from '../engine/errors';
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
    const [description, tabs] = await Promise.all([app.chrome.describe(), app.chrome.listTabs()]);
    io.out(`connected: ${description}, ${tabs.length} tab${tabs.length === 1 ? '' : 's'} open\n`);
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
    return EXIT.ok;
  } catch (e) {
    io.err(`deskpilot: ${errorMessage(e)}\n`);
    return EXIT.failed;
  }
}
