import type { ChromeBackend, CompanionStatus } from '../../engine/ports';
import { sleep } from './cdp-connection';

// Right after Chrome starts, an extension loaded with --load-extension registers its worker a
// moment later than the debugging port opens; until then it looks missing. After a launch that
// loaded the companion, DeskPilot looks again for a while before saying it is missing.

const LOOK_EVERY_MS = 250;

export async function companionAfterLaunch(chrome: Pick<ChromeBackend, 'companion'>, timeoutMs = 10_000): Promise<CompanionStatus> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const status = await chrome.companion();
    if (status.ok || Date.now() >= deadline) return status;
    await sleep(LOOK_EVERY_MS);
  }
}
