// What the remote-gate tests share: a real X desktop with Chromium, a temporary HOME whose
// desktop recent list (recently-used.xbel) names a note and an executable script, a viewer app
// that opens files, and DeskPilot's engine wired as the CLI wires it, behind a LocalDesk — the
// desk a device worker runs rows on.
import { execFile } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { LocalDesk } from '../../src/app/local-desk';
import type { ServiceHost } from '../../src/app/service-host';
import { serveEngine } from '../../src/compose/service-host';
import { wireEngine } from '../../src/compose/wire-engine';
import { loadConfig } from '../../src/platform/config/load-config';
import type { PreparedBatch } from '../../src/protocol/prepared-batch';
import { startDesktop, type Desktop } from '../support/desktop';
import { RawCdp } from '../support/raw-cdp';
import { WAIT_MS } from '../support/wait-for';

export interface GateRig {
  desk: Desktop;
  raw: RawCdp;
  local: LocalDesk;
  home: string;
  /** In the recent list: a plain note, and an executable script that writes `marker` when run. */
  notes: string;
  listedScript: string;
  /** Not in the recent list: writes `marker` when run. */
  hostileScript: string;
  marker: string;
  /** What the test desktop's processes (and the CLI) run with: this HOME and config dir. */
  env: NodeJS.ProcessEnv;
  /** With `serve`: the host answering the service socket for this config dir (as `deskpilot service` does). */
  host: ServiceHost | null;
  stop(): Promise<void>;
}

const bookmark = (file: string, app: string) => `  <bookmark href="${pathToFileURL(file).href}" added="2026-11-30T08:00:00Z" modified="2026-11-30T08:00:00Z" visited="2026-11-30T08:00:00Z">
    <info><metadata owner="http://freedesktop.org"><mime:mime-type type="text/plain"/>
      <bookmark:applications><bookmark:application name="${app}" exec="&apos;xterm %f&apos;" modified="2026-11-30T08:00:00Z" count="1"/></bookmark:applications>
    </metadata></info>
  </bookmark>`;

/** `serve`: the engine is served on the service socket of its config dir, as `deskpilot service` serves it. */
export async function startGateRig(o: { serve?: boolean } = {}): Promise<GateRig> {
  const desk = await startDesktop({ chrome: true });
  const home = await mkdtemp(path.join(os.tmpdir(), 'deskpilot-remote-gate-'));
  const share = path.join(home, '.local', 'share');
  const configDir = path.join(home, 'config');
  await mkdir(path.join(share, 'applications'), { recursive: true });
  await mkdir(path.join(home, 'work'));
  const marker = path.join(home, 'RAN');
  const notes = path.join(home, 'work', 'notes.txt');
  const listedScript = path.join(home, 'work', 'deploy.sh');
  const hostileScript = path.join(home, 'evil.sh');
  await writeFile(notes, 'notes\n');
  for (const s of [listedScript, hostileScript]) {
    await writeFile(s, `#!/bin/sh\necho ran > '${marker}'\nsleep 600\n`);
    await chmod(s, 0o755);
  }
  // A viewer whose Exec takes the file (%f) and shows it: opening a listed note in it is allowed.
  await writeFile(path.join(share, 'applications', 'test-viewer.desktop'), '[Desktop Entry]\nType=Application\nName=Test Viewer\nExec=xterm -T "Test Viewer" -e tail -f %f\n');
  await writeFile(
    path.join(share, 'recently-used.xbel'),
    `<?xml version="1.0" encoding="UTF-8"?>
<xbel version="1.0" xmlns:bookmark="http://www.freedesktop.org/standards/desktop-bookmarks" xmlns:mime="http://www.freedesktop.org/standards/shared-mime-info">
${bookmark(notes, 'Test Viewer')}
${bookmark(listedScript, 'Test Viewer')}
</xbel>
`,
  );
  const env: NodeJS.ProcessEnv = {
    ...desk.env,
    HOME: home,
    XDG_DATA_HOME: share,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    DESKPILOT_CHROME_URL: desk.chrome!.browserWsUrl,
    DESKPILOT_CONFIG_DIR: configDir,
  };
  const wired = await wireEngine(await loadConfig({}, env), { env });
  const served = o.serve ? await serveEngine(wired, configDir) : null;
  const raw = await RawCdp.connect(desk.chrome!.browserWsUrl);
  return {
    desk,
    raw,
    local: served?.desk ?? new LocalDesk(wired),
    env,
    host: served?.host ?? null,
    home,
    notes,
    listedScript,
    hostileScript,
    marker,
    stop: async () => {
      await (served ? served.close() : wired.dispose());
      await raw.dispose();
      await desk.stop();
      await rm(home, { recursive: true, force: true });
    },
  };
}

/** The X windows on the desktop now (wmctrl). */
export function windowList(desk: Desktop): Promise<string[]> {
  return new Promise((resolve, reject) =>
    execFile('wmctrl', ['-l'], { env: desk.env, timeout: WAIT_MS }, (err, stdout) => (err ? reject(err) : resolve(stdout.split('\n').filter(Boolean).map((l) => l.split(/\s+/)[0]!)))),
  );
}

/** Processes whose command line mentions `needle` (read from /proc). */
export async function processesWith(needle: string): Promise<number[]> {
  const pids: number[] = [];
  for (const d of await readdir('/proc')) {
    if (!/^\d+$/.test(d) || Number(d) === process.pid) continue;
    const cmd = await readFile(`/proc/${d}/cmdline`, 'utf8').catch(() => '');
    if (cmd.includes(needle)) pids.push(Number(d));
  }
  return pids;
}

/** A batch as a hostile writer would hand-make it: `commands` resolved as it likes, any `confirm`. */
export function forgedBatch(deviceId: string, commands: PreparedBatch['commands'], confirm: PreparedBatch['confirm'] = []): PreparedBatch {
  return {
    v: 1,
    id: `forged-${Math.random().toString(36).slice(2)}`,
    device_id: deviceId,
    prepared_at: new Date().toISOString(),
    snapshot_taken_at: new Date().toISOString(),
    commands,
    plan: commands.map((c, index) => ({ index, type: c.type, summary: `${c.type} (as the row says)`, destructive: false, targets: [] })),
    confirm,
  };
}
