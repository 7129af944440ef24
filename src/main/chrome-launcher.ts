import { loadConfig } from '../platform/config/load-config';
import { launchChrome, type LaunchOptions, type LaunchedChrome } from '../platform/chrome/launch';

// The Settings / status "Launch Chrome" button: starts Chrome on DeskPilot's own profile
// with remote debugging (or finds it already running) and says so in one sentence.

export async function launchChromeForApp(
  o: { platform?: NodeJS.Platform; isRoot?: boolean; launch?: (opts: LaunchOptions) => Promise<LaunchedChrome> } = {},
): Promise<string> {
  const platform = o.platform ?? process.platform;
  // Chrome refuses to start as root with its sandbox on (containers, CI).
  const asRoot = o.isRoot ?? process.getuid?.() === 0;
  const config = await loadConfig();
  const launched = await (o.launch ?? launchChrome)({
    profileDir: config.chromeProfileDir,
    executable: config.chromePath.value,
    extraArgs: platform === 'linux' && asRoot ? ['--no-sandbox'] : [],
  });
  return launched.reused
    ? `Chrome with DeskPilot's profile is already running (debugging port ${launched.port}).`
    : `Started Chrome with DeskPilot's profile (debugging port ${launched.port}).`;
}
