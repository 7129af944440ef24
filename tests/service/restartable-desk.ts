import { existsSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { chromiumArgs, chromiumBinary, launch, poll, runTool, stopProc, type Proc } from '../support/desktop';

// A desktop whose parts can go away and come back while a service runs against it: Xvfb on
// a fixed display number (so a restarted server is the same DISPLAY), openbox and an xterm,
// and Chromium on a fixed profile (a restarted one writes its new port there, as DeskPilot's
// own Chrome does).

const START_TIMEOUT_MS = 60_000;

export interface RestartableDesk {
  display: string;
  env: NodeJS.ProcessEnv;
  startX(): Promise<void>;
  /** Takes the X server down; every client on it (openbox, xterm, Chromium) goes with it. */
  stopX(): Promise<void>;
  startChrome(): Promise<void>;
  stopChrome(): Promise<void>;
  stop(): Promise<void>;
}

/** A display number far above the ones `Xvfb -displayfd` hands out, so a restart finds it free. */
function freeDisplayNumber(): number {
  for (;;) {
    const n = 300 + Math.floor(Math.random() * 600);
    if (!existsSync(`/tmp/.X${n}-lock`) && !existsSync(`/tmp/.X11-unix/X${n}`)) return n;
  }
}

export async function restartableDesk(profileDir: string): Promise<RestartableDesk> {
  const display = `:${freeDisplayNumber()}`;
  const env: NodeJS.ProcessEnv = { ...process.env, DISPLAY: display, DBUS_SESSION_BUS_ADDRESS: 'disabled:' };
  delete env.WAYLAND_DISPLAY;
  let x: Proc[] = [];
  let chrome: Proc | null = null;

  const startX = async () => {
    const xvfb = await launch('Xvfb', 'Xvfb', [display, '-screen', '0', '1920x1080x24', '-nolisten', 'tcp', '-noreset'], process.env);
    x = [xvfb];
    await poll(`Xvfb on ${display}`, START_TIMEOUT_MS, [xvfb], async () => ((await runTool('xprop', ['-root'], env)) ? true : undefined));
    const openbox = await launch('openbox', 'openbox', ['--sm-disable'], env);
    x.push(openbox);
    await poll('openbox to manage the screen', START_TIMEOUT_MS, [openbox], async () =>
      /window id #/.test(await runTool('xprop', ['-root', '_NET_SUPPORTING_WM_CHECK'], env)) ? true : undefined,
    );
    const xterm = await launch('xterm', 'xterm', [], env);
    x.push(xterm);
    await poll('an xterm window', START_TIMEOUT_MS, [xterm], async () =>
      (await runTool('xdotool', ['search', '--onlyvisible', '--pid', String(xterm.pid)], env)).trim() ? true : undefined,
    );
  };

  const stopX = async () => {
    const [server, ...clients] = x;
    if (server) await stopProc(server);
    await Promise.all(clients.map(stopProc));
    if (chrome) await stopProc(chrome);
    x = [];
    chrome = null;
  };

  const startChrome = async () => {
    const portFile = path.join(profileDir, 'DevToolsActivePort');
    rmSync(portFile, { force: true });
    const proc = await launch('Chromium', chromiumBinary()!, chromiumArgs(profileDir), env);
    chrome = proc;
    await poll(`Chromium to write ${portFile}`, START_TIMEOUT_MS, [proc], async () => {
      const [port = '', wsPath = ''] = (await readFile(portFile, 'utf8')).split('\n');
      return Number(port) > 0 && wsPath.startsWith('/') ? true : undefined;
    });
  };

  const stopChrome = async () => {
    if (chrome) await stopProc(chrome);
    chrome = null;
  };

  return { display, env, startX, stopX, startChrome, stopChrome, stop: stopX };
}
