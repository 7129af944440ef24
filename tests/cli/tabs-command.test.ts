import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCli } from '../support/cli';
import { describeDesktop } from '../support/describe-desktop';
import { startDesktop, type Desktop } from '../support/desktop';
import { RawCdp } from '../support/raw-cdp';

// `deskpilot tabs` without sync set up: the listing across devices is this computer's alone, and
// it says so (the cross-device case is tests/sync/every-device-reads.test.ts).

describeDesktop('deskpilot tabs without sync (issue 29.4)', () => {
  let desk: Desktop;
  let raw: RawCdp;
  let dir: string;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    desk = await startDesktop({ chrome: true });
    raw = await RawCdp.connect(desk.chrome!.browserWsUrl);
    await raw.open(desk.pages.url('page', { title: 'Local Only Notes' }));
    dir = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-tabs-'));
    env = { ...desk.env, DESKPILOT_CONFIG_DIR: dir, DESKPILOT_CHROME_URL: desk.chrome!.browserWsUrl };
  }, 300_000);

  afterAll(async () => {
    await raw?.dispose();
    await desk?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('lists this computer\'s tabs matching the words, each line naming it, and notes that no other device is configured', async () => {
    const r = await runCli(['tabs', 'local', 'notes'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('no sync server is configured');
    expect(r.stdout).toMatch(/^"this computer" \(this computer\): \d+ tabs?, now$/m);
    expect(r.stdout).toMatch(/^this computer {2}\d+\*? w1 \S+ "Local Only Notes"$/m);
  });
});
